# Installs the standalone `pi` binary (pi for Deno) on Windows: the same steps as install.sh.
#
#   irm https://raw.githubusercontent.com/OWNER/pi-deno/main/install.ps1 | iex
#   powershell -ExecutionPolicy Bypass -File install.ps1 [-Version vX.Y.Z] [-InstallDir DIR]
#
# It downloads pi-windows-x64.exe and SHA256SUMS from the release, checks the SHA-256 sum, runs the
# new binary once (--version), and only then moves it over the old pi.exe, so an existing pi is
# replaced only by a complete, verified binary that runs. Then it adds the folder to the user PATH.
# docs/install.md has more.
#
# Environment (each parameter above wins over its variable):
#   PI_VERSION           release tag to install (default: the latest release)
#   PI_INSTALL_DIR       folder for pi.exe (default: %LOCALAPPDATA%\Programs\pi)
#   PI_INSTALL_REPO      GitHub repository owner/name (default below)
#   PI_INSTALL_BASE_URL  releases root instead of https://github.com/$PI_INSTALL_REPO/releases
#                        (assets are fetched from <root>/latest/download/ or <root>/download/<tag>/)
#
# Windows PowerShell 5.1 or PowerShell 7.

param(
  [string]$Version = $env:PI_VERSION,
  [string]$InstallDir = $env:PI_INSTALL_DIR
)

# The repository the releases live in. Set this once the project has its public home.
$DefaultRepo = 'OWNER/pi-deno'
$Supported = 'Linux and macOS (Darwin) on x86_64/amd64 or aarch64/arm64 through install.sh; Windows x64 (AMD64, and ARM64 through x64 emulation)'

function Write-Failure([string]$Message) {
  [Console]::Error.WriteLine("pi install: $Message")
}

# Returns 0 on success, else 1 after saying why on stderr. Everything it prints goes through
# Write-Host or stderr, so the return value is the only output of the function.
function Install-Pi([string]$Version, [string]$InstallDir) {
  # Set here, not at the top: under `irm … | iex` the script runs in the user's own session, and
  # these would stay set there. Inside the function they end with it.
  Set-StrictMode -Version Latest
  $ErrorActionPreference = 'Stop'
  # Windows PowerShell 5.1 redraws Invoke-WebRequest's progress bar for every chunk, which makes a
  # download many times slower.
  $ProgressPreference = 'SilentlyContinue'

  # --- platform -------------------------------------------------------------------------------
  if ($env:OS -ne 'Windows_NT') {
    Write-Failure 'this is not Windows: run install.sh instead (see docs/install.md)'
    return 1
  }
  # A 32-bit PowerShell on 64-bit Windows reports x86 here and the machine's own in ARCHITEW6432.
  $archName = $env:PROCESSOR_ARCHITECTURE
  if ($env:PROCESSOR_ARCHITEW6432) { $archName = $env:PROCESSOR_ARCHITEW6432 }
  switch ($archName) {
    'AMD64' { $arch = 'x64' }
    # Windows 11 on ARM runs x64 programs under emulation; there is no native arm64 build yet.
    'ARM64' { $arch = 'x64' }
    default {
      Write-Failure "no pi binary for this platform: Windows $archName. Binaries exist for $Supported. Elsewhere, run pi from source with Deno (see the README)."
      return 1
    }
  }
  $asset = "pi-windows-$arch.exe"

  # --- where from and where to -----------------------------------------------------------------
  $repo = if ($env:PI_INSTALL_REPO) { $env:PI_INSTALL_REPO } else { $DefaultRepo }
  $base = if ($env:PI_INSTALL_BASE_URL) { $env:PI_INSTALL_BASE_URL } else { "https://github.com/$repo/releases" }
  $base = $base.TrimEnd('/')
  if (-not $Version -or $Version -eq 'latest') {
    $label = 'latest release'
    $from = "$base/latest/download"
  } else {
    if ($Version -match '^[0-9]') { $Version = "v$Version" }
    $label = $Version
    $from = "$base/download/$Version"
  }
  if (-not $InstallDir) {
    $localAppData = if ($env:LOCALAPPDATA) { $env:LOCALAPPDATA } else { Join-Path $HOME 'AppData\Local' }
    $InstallDir = Join-Path $localAppData 'Programs\pi'
  }
  $target = Join-Path $InstallDir 'pi.exe'
  $unchanged = if (Test-Path -LiteralPath $target) { "$target is unchanged" } else { 'nothing was installed' }
  # Move-Item onto a folder would put the binary inside it.
  if (Test-Path -LiteralPath $target -PathType Container) {
    Write-Failure "$target is a folder: remove it or choose another folder with -InstallDir"
    return 1
  }

  # GitHub needs TLS 1.2, which Windows PowerShell 5.1 does not always offer by default.
  [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12

  $tmpDir = Join-Path ([IO.Path]::GetTempPath()) ('pi-install.' + [Guid]::NewGuid().ToString('N'))
  $staged = $null
  try {
    New-Item -ItemType Directory -Path $tmpDir -Force | Out-Null

    # --- download and verify, in a temp folder -------------------------------------------------
    Write-Host "Downloading $asset ($label) from $from"
    $sumsPath = Join-Path $tmpDir 'SHA256SUMS'
    $assetPath = Join-Path $tmpDir $asset
    try {
      Invoke-WebRequest -Uri "$from/SHA256SUMS" -OutFile $sumsPath -UseBasicParsing
    } catch {
      Write-Failure "could not download $from/SHA256SUMS (no such release, or no network); $unchanged"
      return 1
    }
    try {
      Invoke-WebRequest -Uri "$from/$asset" -OutFile $assetPath -UseBasicParsing
    } catch {
      Write-Failure "could not download $from/$asset; $unchanged"
      return 1
    }

    # SHA256SUMS is sha256sum's format: "<hex>  <name>" ("*<name>" in binary mode) per line.
    $expected = $null
    foreach ($line in Get-Content -LiteralPath $sumsPath) {
      $parts = $line.Trim() -split '\s+', 2
      if ($parts.Count -eq 2 -and $parts[1].TrimStart('*') -eq $asset) {
        $expected = $parts[0].ToLowerInvariant()
        break
      }
    }
    if (-not $expected) {
      Write-Failure "SHA256SUMS of this release has no line for $asset; $unchanged"
      return 1
    }
    $actual = (Get-FileHash -Algorithm SHA256 -LiteralPath $assetPath).Hash.ToLowerInvariant()
    if ($actual -ne $expected) {
      Write-Failure "checksum mismatch for ${asset}: SHA256SUMS says $expected, the download is $actual (damaged, or not the published file); $unchanged"
      return 1
    }

    # --- install: a temp file beside the target, checked, then one move over it -----------------
    $staged = Join-Path $InstallDir ('.pi.' + [Guid]::NewGuid().ToString('N') + '.exe')
    try {
      New-Item -ItemType Directory -Path $InstallDir -Force | Out-Null
      Copy-Item -LiteralPath $assetPath -Destination $staged
    } catch {
      Write-Failure "cannot write to ${InstallDir}: choose another folder with -InstallDir (or PI_INSTALL_DIR); $unchanged"
      return 1
    }
    # A native program's stderr would be an error record under 'Stop': collect it as text instead.
    # A file Windows cannot start at all (another architecture, say) throws instead of exiting.
    $ErrorActionPreference = 'Continue'
    try {
      $versionOutput = (& $staged --version 2>&1 | Out-String).Trim()
      $versionStatus = $LASTEXITCODE
    } catch {
      $versionOutput = $_.Exception.Message
      $versionStatus = 1
    }
    $ErrorActionPreference = 'Stop'
    if ($versionStatus -ne 0) {
      Write-Failure "the downloaded $asset does not run on this machine: $versionOutput; $unchanged"
      return 1
    }
    $installedVersion = ($versionOutput -split "`r?`n")[0]
    $replaced = Test-Path -LiteralPath $target
    try {
      Move-Item -LiteralPath $staged -Destination $target -Force
    } catch {
      # A running pi.exe cannot be overwritten, but it can be renamed: move it aside first.
      $aside = "$target.old"
      Remove-Item -LiteralPath $aside -Force -ErrorAction SilentlyContinue
      try {
        Rename-Item -LiteralPath $target -NewName (Split-Path -Leaf $aside)
        Move-Item -LiteralPath $staged -Destination $target -Force
      } catch {
        Write-Failure "cannot replace ${target}: $($_.Exception.Message)"
        return 1
      }
    }
    $staged = $null
  } finally {
    if ($staged) { Remove-Item -LiteralPath $staged -Force -ErrorAction SilentlyContinue }
    Remove-Item -LiteralPath $tmpDir -Recurse -Force -ErrorAction SilentlyContinue
  }

  if ($replaced) {
    Write-Host "Replaced $target with pi $installedVersion"
  } else {
    Write-Host "Installed pi $installedVersion to $target"
  }

  # --- PATH --------------------------------------------------------------------------------------
  $normalized = $InstallDir.TrimEnd('\')
  $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
  $entries = @(if ($userPath) { $userPath -split ';' | Where-Object { $_ } })
  if (-not ($entries | Where-Object { $_.TrimEnd('\') -ieq $normalized })) {
    [Environment]::SetEnvironmentVariable('Path', (@($entries) + $InstallDir) -join ';', 'User')
    Write-Host "Added $InstallDir to your user PATH: open a new terminal to use 'pi'."
  }
  if (-not (($env:Path -split ';') | Where-Object { $_.TrimEnd('\') -ieq $normalized })) {
    $env:Path = "$env:Path;$InstallDir"
  }
  $found = Get-Command pi -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($found -and $found.Source -ne $target) {
    Write-Host "Note: another pi comes first on your PATH ($($found.Source)); run $target, or put $InstallDir earlier on PATH."
  } else {
    Write-Host "Run 'pi' in a project folder to start (pi --help lists the options)."
  }
  return 0
}

$status = Install-Pi -Version $Version -InstallDir $InstallDir
if ($status -ne 0) {
  # Run as a file, the exit code tells the caller; piped into Invoke-Expression, `exit` would close
  # the user's own PowerShell window, so only $LASTEXITCODE is set.
  if ($PSCommandPath) { exit $status }
  $global:LASTEXITCODE = $status
}
