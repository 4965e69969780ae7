import { programRows, type Expect } from '../../helpers/program-rows';

// macOS's own programs: what lists, gets, prints or verifies reads; what changes the machine is
// process_exec; what writes a file names it; an option a strict spec does not list is opaque.
const READS: Expect = { level: 'read_only', opaque: false, effects: [] };
const CHANGES: Expect = { level: 'process_exec', opaque: false };
const UNKNOWN: Expect = { level: 'process_exec', opaque: 'not an option persona-gate knows' };

programRows('networksetup', [
  ['networksetup -listallnetworkservices', { ...READS, kind: 'reader' }],
  ['networksetup -getinfo Wi-Fi', { ...READS }],
  ['networksetup -getdnsservers "Wi-Fi"', { ...READS }],
  ['networksetup -getairportnetwork en0', { ...READS }],
  ['networksetup -listallhardwareports', { ...READS }],
  ['networksetup', { ...READS }],
  ['networksetup -help', { ...READS }],
  ['networksetup -setdnsservers Wi-Fi 1.1.1.1', { ...CHANGES }],
  ['networksetup -setmanual Wi-Fi 10.0.0.2 255.255.255.0 10.0.0.1', { ...CHANGES }],
  ['networksetup -createnetworkservice x en0', { ...CHANGES }],
  ['networksetup -setwebproxy Wi-Fi proxy 8080', { ...CHANGES }],
  ['networksetup -setproxyautodiscovery Wi-Fi on', { ...CHANGES }],
  ['networksetup -setsocksfirewallproxystate Wi-Fi off', { ...CHANGES }],
  ['networksetup -setairportpower en0 off', { ...CHANGES }],
  ['networksetup -setMTU en0 1400', { ...CHANGES }],
  ['networksetup -createpppoeservice en0 x a b c', { ...CHANGES }],
  ['networksetup -createlocation Office', { ...CHANGES }],
  ['networksetup -setdnsserver Wi-Fi 1.1.1.1', { ...UNKNOWN }],
  ['networksetup -getinfo Wi-Fi -frob', { ...UNKNOWN }],
]);

programRows('security', [
  ['security find-certificate -a -c Apple -p', { ...READS }],
  ['security find-identity -v -p codesigning', { ...READS }],
  ['security find-generic-password -s service -a me', { ...READS }],
  ['security find-internet-password -s github.com', { ...READS }],
  ['security dump-trust-settings -d', { ...READS }],
  ['security list-keychains', { ...READS }],
  ['security list-keychains -d user -s a.keychain', { ...CHANGES }],
  ['security default-keychain -s a.keychain', { ...CHANGES }],
  ['security login-keychain -s a.keychain', { ...CHANGES }],
  ['security authorizationdb read system.privilege.admin', { ...READS }],
  ['security authorizationdb write system.privilege.admin allow', { ...CHANGES }],
  ['security get-identity-preference -s https://example.com', { ...READS }],
  ['security smartcards token -l', { ...READS }],
  ['security smartcards token -d com.x', { ...CHANGES }],
  ['security cms -D -i profile.mobileprovision', { ...READS }],
  ['security cms -D -i in.p7 -o out.plist', { level: 'workspace_write', effects: ['write out.plist'] }],
  ['security cms -S -N me -i a -o b', { level: 'process_exec' }],
  ['security cms -E -r them -i a -o b', { level: 'process_exec' }],
  ['security export -k login.keychain -t certs -o certs.pem', { level: 'workspace_write', effects: ['write certs.pem'] }],
  ['security trust-settings-export out.plist', { level: 'workspace_write', effects: ['write out.plist'] }],
  ['security verify-cert -c cert.pem', { level: 'network', opaque: false }],
  ['security add-trusted-cert -d ca.pem', { ...CHANGES }],
  ['security delete-certificate -c x', { ...CHANGES }],
  ['security unlock-keychain login.keychain', { ...CHANGES }],
  ['security import key.p12 -k login.keychain', { ...CHANGES }],
  ['security find-certificate -a -Q', { ...UNKNOWN }],
  ['security execute-with-privileges /bin/sh', { level: 'process_exec', opaque: true }],
  ['security', { level: 'process_exec', opaque: 'at a terminal' }],
  ['security -i', { level: 'process_exec', opaque: 'at a terminal' }],
  ['security -h', { ...READS }],
  ['security frob', { level: 'process_exec', opaque: 'not a subcommand' }],
]);

programRows('launchctl', [
  ['launchctl list', { ...READS }],
  ['launchctl list com.apple.Finder', { ...READS }],
  ['launchctl print system/com.apple.sshd', { ...READS }],
  ['launchctl print-disabled gui/501', { ...READS }],
  ['launchctl blame system/com.apple.x', { ...READS }],
  ['launchctl load ~/Library/LaunchAgents/x.plist', { ...CHANGES }],
  ['launchctl bootout gui/501/com.x', { ...CHANGES }],
  ['launchctl kickstart -k system/com.x', { ...CHANGES }],
  ['launchctl setenv PATH /x', { ...CHANGES }],
  ['launchctl limit maxfiles 1024 unlimited', { ...CHANGES }],
  ['launchctl asuser 501 /bin/ls', { level: 'process_exec', opaque: true }],
  ['launchctl submit -l x -- /bin/sh -c id', { level: 'process_exec', opaque: true }],
  ['launchctl', { level: 'process_exec', opaque: 'its input' }],
  ['launchctl frob', { level: 'process_exec', opaque: 'not a subcommand' }],
]);

programRows('tmutil', [
  ['tmutil listbackups', { ...READS }],
  ['tmutil destinationinfo -X', { ...READS }],
  ['tmutil isexcluded ~/Downloads', { ...READS }],
  ['tmutil listlocalsnapshots /', { ...READS }],
  ['tmutil status', { ...READS }],
  ['tmutil startbackup', { ...CHANGES }],
  ['tmutil addexclusion node_modules', { ...CHANGES }],
  ['tmutil deletelocalsnapshots 2024-01-01-000000', { ...CHANGES }],
  ['tmutil restore /Volumes/x/a ./a', { ...CHANGES }],
  ['tmutil frob', { level: 'process_exec', opaque: 'not a subcommand' }],
]);

programRows('pkgutil', [
  ['pkgutil --pkgs', { ...READS }],
  ['pkgutil --pkgs=com.apple.*', { ...READS }],
  ['pkgutil --pkg-info com.apple.pkg.CLTools_Executables', { ...READS }],
  ['pkgutil --files com.x --only-files', { ...READS }],
  ['pkgutil --check-signature x.pkg', { ...READS }],
  ['pkgutil --file-info /usr/bin/git', { ...READS }],
  ['pkgutil -h', { ...READS }],
  ['pkgutil --forget com.x', { ...CHANGES }],
  ['pkgutil --bom x.pkg', { level: 'workspace_write', effects: ['into /tmp'] }],
  ['pkgutil --expand x.pkg out', { level: 'workspace_write', effects: ['into out'] }],
  ['pkgutil --expand-full x.pkg', { level: 'process_exec' }],
  ['pkgutil --flatten dir x.pkg', { level: 'workspace_write', effects: ['write x.pkg'] }],
  ['pkgutil --frob', { ...UNKNOWN }],
]);

programRows('profiles', [
  ['profiles list', { ...READS }],
  ['profiles show -all', { ...READS }],
  ['profiles status -type enrollment', { ...READS }],
  ['profiles show -type configuration -output stdout-xml', { ...READS }],
  ['profiles show -o out.xml', { level: 'workspace_write', effects: ['write out.xml'] }],
  ['profiles -P', { ...READS }],
  ['profiles install -path x.mobileconfig', { ...CHANGES }],
  ['profiles remove -identifier com.x', { ...CHANGES }],
  ['profiles renew -type enrollment', { ...CHANGES }],
  ['profiles show -frob', { ...UNKNOWN }],
  ['profiles frob', { level: 'process_exec', opaque: 'not a subcommand' }],
]);

programRows('diskutil', [
  ['diskutil list', { ...READS }],
  ['diskutil info disk0', { ...READS }],
  ['diskutil apfs list', { ...READS }],
  ['diskutil apfs listSnapshots /', { ...READS }],
  ['diskutil cs list', { ...READS }],
  ['diskutil verifyVolume /', { ...READS }],
  ['diskutil eraseDisk APFS x disk4', { ...CHANGES }],
  ['diskutil unmount /Volumes/x', { ...CHANGES }],
  ['diskutil apfs deleteVolume disk3s5', { ...CHANGES }],
  ['diskutil appleRAID create mirror x JHFS+ disk2 disk3', { ...CHANGES }],
]);

programRows('hdiutil', [
  ['hdiutil info', { ...READS }],
  ['hdiutil imageinfo x.dmg', { ...READS }],
  ['hdiutil verify x.dmg', { ...READS }],
  ['hdiutil isencrypted -plist x.dmg', { ...READS }],
  ['hdiutil verify -shadow x.dmg', { ...UNKNOWN }],
  ['hdiutil create -srcfolder dist -volname App out.dmg', { level: 'workspace_write', effects: ['write out.dmg'] }],
  ['hdiutil create -size 10m -fs APFS -attach out.dmg', { level: 'process_exec' }],
  ['hdiutil create -frob out.dmg', { ...UNKNOWN }],
  ['hdiutil convert in.dmg -format UDZO -o out.dmg', { level: 'workspace_write', effects: ['write out.dmg'] }],
  ['hdiutil attach x.dmg', { ...CHANGES }],
  ['hdiutil detach /Volumes/x', { ...CHANGES }],
]);

programRows('codesign', [
  ['codesign -dv --verbose=4 /Applications/Safari.app', { ...READS }],
  ['codesign -dvvv App.app', { ...READS }],
  ['codesign --verify --deep --strict App.app', { ...READS }],
  ['codesign --verify --check-notarization App.app', { level: 'network', opaque: false }],
  ['codesign -d --entitlements :- App.app', { ...READS }],
  ['codesign -d --entitlements ent.plist App.app', { level: 'workspace_write', effects: ['write ent.plist'] }],
  ['codesign -d -r req.txt App.app', { level: 'workspace_write', effects: ['write req.txt'] }],
  ['codesign -d --extract-certificates App.app', { level: 'workspace_write', effects: ['into .'] }],
  ['codesign -s - build/App.app', { level: 'workspace_write', effects: ['destroy build/App.app'] }],
  ['codesign -fs "Developer ID" --options runtime build/App.app', { level: 'workspace_write', effects: ['destroy build/App.app'] }],
  ['codesign -s ID -D app.sig build/App.app', { level: 'workspace_write', effects: ['write app.sig'] }],
  ['codesign --remove-signature build/App.app', { level: 'workspace_write', effects: ['destroy build/App.app'] }],
  ['codesign -d --frob App.app', { ...UNKNOWN }],
]);

programRows('spctl', [
  ['spctl --assess --type execute -v App.app', { ...READS }],
  ['spctl -a -t open --context context:primary-signature x.dmg', { ...READS }],
  ['spctl --status', { ...READS }],
  ['spctl --master-disable', { ...CHANGES }],
  ['spctl --add --label x App.app', { ...CHANGES }],
  ['spctl --frob', { ...UNKNOWN }],
]);

programRows('defaults', [
  ['defaults read com.apple.finder', { ...READS }],
  ['defaults read -g AppleInterfaceStyle', { ...READS }],
  ['defaults -currentHost read com.apple.screensaver', { ...READS }],
  ['defaults domains', { ...READS }],
  ['defaults read-type com.apple.dock autohide', { ...READS }],
  ['defaults export com.apple.dock -', { ...READS }],
  ['defaults export com.apple.dock dock.plist', { level: 'workspace_write', effects: ['write dock.plist'] }],
  ['defaults write com.apple.dock autohide -bool true', { ...CHANGES }],
  ['defaults delete com.apple.dock', { ...CHANGES }],
  ['defaults import com.apple.dock dock.plist', { ...CHANGES }],
  ['defaults frob', { level: 'process_exec', opaque: 'not a subcommand' }],
]);

programRows('scutil', [
  ['scutil --get ComputerName', { ...READS }],
  ['scutil --dns', { ...READS }],
  ['scutil --proxy', { ...READS }],
  ['scutil -r github.com', { ...READS }],
  ['scutil -w State:/Network/Global/IPv4 -t 5', { ...READS }],
  ['scutil --set HostName x', { ...CHANGES }],
  ['scutil --prefs', { ...CHANGES }],
  ['scutil', { level: 'process_exec', opaque: 'at a terminal' }],
  ['scutil --frob', { ...UNKNOWN }],
]);

programRows('dscl', [
  ['dscl . -read /Users/me', { ...READS }],
  ['dscl . -list /Users UniqueID', { ...READS }],
  ['dscl . read /Users/me', { ...READS }],
  ['dscl -plist . -readall /Groups', { ...READS }],
  ['dscl . -create /Users/x', { ...CHANGES }],
  ['dscl . -passwd /Users/x old new', { ...CHANGES }],
  ['dscl . delete /Users/x', { ...CHANGES }],
  ['dscl .', { level: 'process_exec', opaque: 'at a terminal' }],
  ['dscl . -zap /Users', { ...UNKNOWN }],
]);

programRows('dscacheutil', [
  ['dscacheutil -q user -a name me', { ...READS }],
  ['dscacheutil -statistics', { ...READS }],
  ['dscacheutil -flushcache', { ...CHANGES }],
]);

programRows('sysctl', [
  ['sysctl -n hw.ncpu', { ...READS }],
  ['sysctl hw.memsize machdep.cpu.brand_string', { ...READS }],
  ['sysctl -a', { ...READS }],
  ['sysctl kern.maxfiles=65536', { ...CHANGES }],
  ['sysctl -w kern.maxfiles=65536', { ...CHANGES }],
  ['sysctl -f /etc/sysctl.conf', { ...CHANGES }],
  ['sysctl -n "$NAME"', { level: 'process_exec', opaque: true }],
  ['sysctl -Z', { ...UNKNOWN }],
]);

programRows('plutil', [
  ['plutil -p Info.plist', { ...READS }],
  ['plutil -lint Info.plist', { ...READS }],
  ['plutil -type CFBundleVersion Info.plist', { ...READS }],
  ['plutil -extract CFBundleVersion raw -o - Info.plist', { ...READS }],
  ['plutil -extract CFBundleVersion raw Info.plist', { level: 'workspace_write' }],
  ['plutil -convert json -o out.json Info.plist', { level: 'workspace_write', effects: ['write out.json'] }],
  ['plutil -convert xml1 Info.plist', { level: 'workspace_write', effects: ['destroy xml1', 'destroy Info.plist'] }],
  ['plutil -convert json -e json conf/Info.plist', { level: 'workspace_write', effects: ['into .', 'into conf'] }],
  ['plutil -insert Key -string v Info.plist', { level: 'workspace_write' }],
  ['plutil -frob Info.plist', { ...UNKNOWN }],
]);

programRows('xattr', [
  ['xattr -l file.txt', { ...READS }],
  ['xattr -p com.apple.quarantine App.app', { ...READS }],
  ['xattr -rl dir', { ...READS }],
  ['xattr -w com.x v file.txt', { level: 'workspace_write', effects: ['destroy file.txt'] }],
  ['xattr -d com.apple.quarantine App.app', { level: 'workspace_write', effects: ['destroy App.app'] }],
  ['xattr -c file.txt', { level: 'workspace_write', effects: ['destroy file.txt'] }],
  ['xattr -cr dir', { level: 'workspace_write', effects: ['destroy dir'] }],
  ['xattr -Z file', { ...UNKNOWN }],
]);

programRows('sips', [
  ['sips -g pixelWidth -g pixelHeight a.png', { ...READS }],
  ['sips --getProperty format a.png', { ...READS }],
  ['sips --verify profile.icc', { ...READS }],
  ['sips -Z 640 a.png', { level: 'workspace_write', effects: ['destroy a.png'] }],
  ['sips --deleteColorManagementProperties a.png', { level: 'workspace_write', effects: ['destroy a.png'] }],
  ['sips -s format jpeg a.png --out b.jpg', { level: 'workspace_write', effects: ['write b.jpg'] }],
  ['sips -i a.png', { level: 'workspace_write', effects: ['destroy a.png'] }],
  ['sips -x out.icc a.png', { level: 'workspace_write', effects: ['write out.icc'] }],
  ['sips -E p.icc a.png', { level: 'workspace_write' }],
  ['sips --frob a.png', { ...UNKNOWN }],
]);

programRows('mdls', [
  ['mdls -name kMDItemContentType a.pdf', { ...READS }],
  ['mdls -plist out.plist a.pdf', { level: 'workspace_write', effects: ['write out.plist'] }],
]);
programRows('mdfind', [
  ['mdfind -onlyin ~/src "kMDItemKind == Folder"', { ...READS }],
  ['mdfind -name readme', { ...READS }],
]);
programRows('mdimport', [
  ['mdimport -L', { ...READS }],
  ['mdimport -t -d2 a.pdf', { ...READS }],
  ['mdimport a.pdf', { ...CHANGES }],
  ['mdimport -r /Library/Spotlight/x.mdimporter', { ...CHANGES }],
]);
programRows('mdutil', [
  ['mdutil -s /', { ...READS }],
  ['mdutil -i off /', { ...CHANGES }],
  ['mdutil -E /', { ...CHANGES }],
]);

programRows('qlmanage', [
  ['qlmanage -p a.pdf', { ...READS }],
  ['qlmanage -m', { ...READS }],
  ['qlmanage -t -s 512 a.pdf', { ...READS }],
  ['qlmanage -t -o thumbs a.pdf', { level: 'workspace_write', effects: ['into thumbs'] }],
  ['qlmanage -r cache', { ...CHANGES }],
]);

programRows('lipo', [
  ['lipo -info a.out', { ...READS }],
  ['lipo -archs a.out', { ...READS }],
  ['lipo -create x86 arm64 -output universal', { level: 'workspace_write', effects: ['write universal'] }],
  ['lipo a.out -thin arm64 -output a-arm64', { level: 'workspace_write', effects: ['write a-arm64'] }],
  ['lipo -frob a.out', { ...UNKNOWN }],
]);

programRows('otool', [
  // only reads and prints
  ['otool -L /usr/bin/git', { ...READS }],
]);
programRows('nm', [
  // only reads and prints
  ['nm -gU libx.a', { ...READS }],
]);
programRows('symbols', [
  ['symbols -w /usr/bin/ls', { ...READS }],
  ['symbols -noSources -arch arm64 /usr/bin/ls', { ...READS }],
  ['symbols -saveSignature sig /usr/bin/ls', { level: 'workspace_write', effects: ['write sig'] }],
  ['symbols -symbolsPackageDir pkg /usr/bin/ls', { level: 'workspace_write', effects: ['into pkg'] }],
  ['symbols -frob /usr/bin/ls', { ...UNKNOWN }],
]);

programRows('sample', [
  ['sample', { ...READS }],
  ['sample Safari 5', { level: 'workspace_write', effects: ['into /tmp'] }],
  ['sample 1234 -file report.txt', { level: 'workspace_write', effects: ['write report.txt'] }],
  ['sample -e 1234', { level: 'process_exec', opaque: true }],
]);

programRows('say', [
  ['say hello', { ...READS }],
  ['say -v Alex -r 200 hello', { ...READS }],
  ['say -f notes.txt', { ...READS }],
  ['say -o hello.aiff hello', { level: 'workspace_write', effects: ['write hello.aiff'] }],
  ['say -n host:7000 hi', { level: 'network' }],
]);

programRows('open', [
  ['open .', { level: 'process_exec', opaque: true }],
  ['open -a Safari https://example.com', { level: 'process_exec', opaque: true }],
  ['open -h stdio.h', { level: 'process_exec', opaque: true }],
  ['open --help', { ...READS }],
]);

programRows('textutil', [
  ['textutil -info a.rtf', { ...READS }],
  ['textutil -convert txt -stdout a.rtf', { ...READS }],
  ['textutil -convert html -output out.html a.rtf', { level: 'workspace_write', effects: ['write out.html'] }],
  ['textutil -convert txt docs/a.rtf', { level: 'workspace_write', effects: ['into docs'] }],
  ['textutil -cat txt docs/a.rtf b.rtf', { level: 'workspace_write', effects: ['into .'] }],
  ['textutil -frob a.rtf', { ...UNKNOWN }],
]);

programRows('sw_vers', [
  // only reads and prints
  ['sw_vers -productVersion', { ...READS }],
]);
programRows('system_profiler', [
  ['system_profiler SPHardwareDataType -json', { ...READS }],
  ['system_profiler -detailLevel mini SPSoftwareDataType', { ...READS }],
]);
programRows('ioreg', [
  // only reads and prints
  ['ioreg -l -w 0 -r -c IOPlatformExpertDevice', { ...READS }],
]);
programRows('pmset', [
  ['pmset -g', { ...READS }],
  ['pmset -g batt', { ...READS }],
  ['pmset -a sleep 0', { ...CHANGES }],
  ['pmset sleepnow', { ...CHANGES }],
  ['pmset -g -z', { ...UNKNOWN }],
]);
programRows('csrutil', [
  ['csrutil status', { ...READS }],
  ['csrutil authenticated-root status', { ...READS }],
  ['csrutil disable', { ...CHANGES }],
]);
programRows('log', [
  ['log show --last 1h --predicate \'process == "x"\'', { ...READS }],
  ['log stream --level debug', { ...READS }],
  ['log collect --last 1h --output logs.logarchive', { level: 'workspace_write', effects: ['write logs.logarchive'] }],
  ['log config --mode level:debug', { ...CHANGES }],
  ['log erase --all', { ...CHANGES }],
  ['log frob', { level: 'process_exec', opaque: 'not a subcommand' }],
]);
