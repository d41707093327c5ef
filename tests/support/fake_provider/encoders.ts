/**
 * Imports every wire encoder so each registers itself with the fake server.
 *
 * @module
 */
