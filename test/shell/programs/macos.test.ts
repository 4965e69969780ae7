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
