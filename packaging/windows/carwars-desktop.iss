; Inno Setup 6 script: the Windows installer of Carwars Desktop.
;
;   python packaging/make_icons.py build/icons
;   python -m PyInstaller --noconfirm --distpath dist --workpath build/pyinstaller packaging/carwars-desktop.spec
;   iscc /DAppVersion=0.1.0 packaging\windows\carwars-desktop.iss
;
; Installs the PyInstaller bundle (dist\carwars-desktop: carwars-desktop.exe, the window,
; and carwars-desktop-cli.exe for the command line) for the current user, or for all users
; when run as administrator; adds a Start-menu entry, an optional desktop icon and an
; uninstaller (Settings > Apps, and in the Start menu). Uninstalling leaves the user's
; database (%LOCALAPPDATA%\carwars\carwars-desktop) alone. Output:
; dist\carwars-desktop-VERSION-windows-x64-setup.exe. Relative paths are from this folder.

#ifndef AppVersion
  #error Give the version: iscc /DAppVersion=X.Y.Z carwars-desktop.iss
#endif
#define AppName "Carwars Desktop"
#define AppExe "carwars-desktop.exe"

[Setup]
AppId={{DAC2C1CF-D266-45A2-B596-7CE361CB4CA2}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=Carwars Desktop developers
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
LicenseFile=..\THIRD-PARTY-NOTICES.txt
SetupIconFile=..\..\build\icons\carwars-desktop.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
OutputDir=..\..\dist
OutputBaseFilename=carwars-desktop-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "..\..\dist\carwars-desktop\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "..\THIRD-PARTY-NOTICES.txt"; DestDir: "{app}"; Flags: ignoreversion

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{group}\{cm:UninstallProgram,{#AppName}}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
