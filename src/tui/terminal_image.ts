/**
 * Terminal capabilities and inline images, pi-tui 1.6.0's `terminal-image.js`: capability
 * detection and cell size (`terminal_image_capabilities.ts`), header dimensions
 * (`terminal_image_dimensions.ts`), kitty commands and image lines (`terminal_image_kitty.ts`),
 * sizing, iTerm2, `renderImage`, hyperlinks and the text fallback (`terminal_image_render.ts`).
 *
 * @module
 */
export {
  type CellDimensions,
  detectCapabilities,
  getCapabilities,
  getCellDimensions,
  getTerminalColorMode,
  type ImageProtocol,
  resetCapabilitiesCache,
  setCapabilities,
  setCapabilityOverrides,
  setCellDimensions,
  type TerminalCapabilities,
} from "./terminal_image_capabilities.ts";
export {
  getGifDimensions,
  getImageDimensions,
  getJpegDimensions,
  getPngDimensions,
  getWebpDimensions,
  type ImageDimensions,
} from "./terminal_image_dimensions.ts";
export {
  allocateImageId,
  cropKittyImageLine,
  deleteAllKittyImages,
  deleteAllKittyPlacements,
  deleteKittyImage,
  encodeKitty,
  getImageLineExtent,
  getKittyImageMetadata,
  getKittyImagePlacement,
  getKittyImagePlacementRows,
  getMaxKittyImageRows,
  type ImageCellSize,
  type ImageLineExtent,
  isImageLine,
  type KittyImageMetadata,
  type KittyImagePlacement,
  registerKittyImageMetadata,
  stripImageSequences,
} from "./terminal_image_kitty.ts";
export {
  calculateImageCellSize,
  calculateImageRows,
  encodeITerm2,
  hyperlink,
  imageFallback,
  type ImageRenderOptions,
  renderImage,
} from "./terminal_image_render.ts";
