import { programRows } from '../../helpers/program-rows';

// Programs that reach the network.
programRows('network programs', [
  ['ftp example.com', { level: 'network' }],
  ['telnet example.com 80', { level: 'network' }],
  ['dig example.com', { level: 'network' }],
  ['nslookup example.com', { level: 'network' }],
  ['host example.com', { level: 'network' }],
  ['ping -c 1 example.com', { level: 'network' }],
  ['traceroute example.com', { level: 'network' }],
  ['aria2c https://example.com/f', { level: 'network' }],
  ['ssh host uptime', { level: 'network', opaque: 'another host' }],
  ['nc -l 8080', { level: 'network', opaque: true }],
  ['ncat host 80', { level: 'network', opaque: true }],
  ['netcat host 80', { level: 'network', opaque: true }],
  ['socat - TCP:host:80', { level: 'network', opaque: true }],
  ['http GET example.com', { level: 'network', effects: [] }],
  ['http -o page.html example.com', { level: 'network', effects: ['write page.html'] }],
  ['https -o page.html example.com', { level: 'network', effects: ['write page.html'] }],
  ['sftp host', { level: 'network', opaque: false }],
  ['sftp -o ProxyCommand=x host', { level: 'network', opaque: true }],
  ['sftp -S ./ssh host', { level: 'network', opaque: true }],
  ['sftp -F cfg host', { level: 'network', opaque: true }],
  ['sftp -D ./server host', { level: 'network', opaque: true }],
]);

programRows('curl', [
  ['curl https://example.com', { level: 'network', effects: [] }],
  ['curl -o page.html https://example.com', { level: 'network', effects: ['write page.html'] }],
  ['curl -o - https://example.com', { level: 'network', effects: [] }],
  ['curl -O https://example.com/f.zip', { level: 'network', effects: ['into .', 'write ./f.zip'] }],
  ['curl --remote-name-all https://example.com/f.zip', { level: 'network', effects: ['into .', 'write ./f.zip'] }],
  ['curl -J -O https://example.com/f.zip', { level: 'network', effects: ['into .', 'write ./f.zip'] }],
  ['curl --output-dir dl -O https://example.com/f.zip', { level: 'network', effects: ['into dl', 'write dl/f.zip'] }],
  ['curl -D headers.txt https://example.com', { level: 'network', effects: ['write headers.txt'] }],
  ['curl -c jar.txt https://example.com', { level: 'network', effects: ['write jar.txt'] }],
  ['curl --trace trace.txt https://example.com', { level: 'network', effects: ['write trace.txt'] }],
  ['curl --trace-ascii trace.txt https://example.com', { level: 'network', effects: ['write trace.txt'] }],
  ['curl --stderr err.txt https://example.com', { level: 'network', effects: ['write err.txt'] }],
  ['curl --libcurl code.c https://example.com', { level: 'network', effects: ['write code.c'] }],
  ['curl --etag-save etag.txt https://example.com', { level: 'network', effects: ['write etag.txt'] }],
  ['curl --hsts hsts.txt https://example.com', { level: 'network', effects: ['write hsts.txt'] }],
  ['curl --alt-svc svc.txt https://example.com', { level: 'network', effects: ['write svc.txt'] }],
  ['curl -K curl.cfg https://example.com', { level: 'network', opaque: 'reads options from a file' }],
  ['curl -H "X-A: b" -d @body.json https://example.com', { level: 'network', effects: [] }],
  ['curl --help', { level: 'read_only' }],
  ['curl --version', { level: 'read_only' }],
]);

programRows('wget', [
  ['wget https://example.com/f.zip', { level: 'network', effects: ['into .', 'write ./f.zip'] }],
  ['wget -O out.zip https://example.com/f.zip', { level: 'network', effects: ['write out.zip'] }],
  ['wget -o log.txt -O out.zip https://example.com/f.zip', { level: 'network', effects: ['write log.txt', 'write out.zip'] }],
  ['wget -a log.txt -O - https://example.com', { level: 'network', effects: ['write log.txt'] }],
  ['wget -P dl https://example.com/f.zip', { level: 'network', effects: ['into dl', 'write dl/f.zip'] }],
  ['wget -r https://example.com/', { level: 'network', effects: ['destroy .', 'write .'] }],
  ['wget -m https://example.com/', { level: 'network', effects: ['destroy .', 'write .'] }],
  ['wget -p https://example.com/', { level: 'network', effects: ['destroy .', 'write .'] }],
  ['wget -e robots=off https://example.com/', { level: 'network', opaque: true }],
  ['wget --config=rc https://example.com/', { level: 'network', opaque: true }],
  ['wget --use-askpass=./pw https://example.com/', { level: 'network', opaque: true }],
]);

programRows('scp and rsync', [
  ['scp f host:/x', { level: 'network', effects: [] }],
  ['scp host:/x local.txt', { level: 'network', effects: ['write local.txt', 'into local.txt', 'destroy local.txt/x'] }],
  ['scp -o ProxyCommand=x f host:/x', { level: 'network', opaque: true }],
  ['scp -S ./ssh f host:/x', { level: 'network', opaque: true }],
  ['scp -F cfg f host:/x', { level: 'network', opaque: true }],
  ['rsync -a src/ host:/backup', { level: 'network', effects: [] }],
  ['rsync -a src/ backup', { level: 'network', effects: ['write backup', 'into backup', 'destroy backup'] }],
  ['rsync -a --remove-source-files src/ host:/x', { level: 'network', effects: ['destroy src/'] }],
  ['rsync -a --log-file=sync.log src/ host:/x', { level: 'network', effects: ['write sync.log'] }],
  ['rsync -e ssh src host:/x', { level: 'network', opaque: 'remote shell' }],
  ['rsync --rsync-path=./r src host:/x', { level: 'network', opaque: true }],
]);

programRows('PowerShell web requests', [
  ['Invoke-WebRequest https://example.com -OutFile page.html', { level: 'network', effects: ['write page.html'], powershell: true }],
  ['iwr https://example.com', { level: 'network', powershell: true }],
]);

programRows('psql', [
  ['psql -V', { level: 'read_only', opaque: false }],
  ['psql --version', { level: 'read_only', opaque: false }],
  ['psql -l', { level: 'network', opaque: false }],
  ['psql --list -h db.internal', { level: 'network', opaque: false }],
  ['psql -c "SELECT * FROM users"', { level: 'network', opaque: false }],
  ['psql -d mydb -U postgres -c "SELECT 1" -c "DROP TABLE users"', { level: 'network', opaque: false }],
  ['psql --command="SELECT 1" mydb', { level: 'network', opaque: false }],
  ['psql -c "SELECT 1" -o out.txt', { level: 'network', effects: ['write out.txt'] }],
  ['psql -L session.log -c "SELECT 1"', { level: 'network', effects: ['write session.log'] }],
  // its own commands run programs here and write files; a script, the input and the terminal may hold any
  ['psql -c "\\! rm -rf ~"', { level: 'network', opaque: 'run programs here' }],
  ['psql -c "\\o /tmp/x" -c "SELECT 1"', { level: 'network', opaque: true }],
  ['psql -c "$Q"', { level: 'network', opaque: true }],
  ['psql -f script.sql', { level: 'network', opaque: true }],
  ['psql -c "SELECT 1" --file=script.sql', { level: 'network', opaque: true }],
  ['psql mydb', { level: 'network', opaque: true }],
  ['psql', { level: 'network', opaque: true }],
]);

programRows('mysql', [
  ['mysql -V', { level: 'read_only', opaque: false }],
  ['mysql -?', { level: 'read_only', opaque: false }],
  ["mysql -e 'SHOW DATABASES'", { level: 'network', opaque: false }],
  ["mysql -u root -p -D mydb -e 'SELECT 1'", { level: 'network', opaque: false }],
  ["mysql --execute='DROP TABLE users' mydb", { level: 'network', opaque: false }],
  ["mysql --init-command='SET x=1' -e 'SELECT 1'", { level: 'network', opaque: false }],
  ["mysql --tee=log.txt -e 'SELECT 1'", { level: 'network', effects: ['write log.txt'] }],
  ["mysql -e 'system rm -rf ~'", { level: 'network', opaque: 'run programs here' }],
  ["mysql -e 'source dump.sql'", { level: 'network', opaque: true }],
  ["mysql -e '\\! ls'", { level: 'network', opaque: true }],
  ["mysql --pager=less -e 'SELECT 1'", { level: 'network', opaque: true }],
  ["mysql --plugin-dir=./p -e 'SELECT 1'", { level: 'network', opaque: true }],
  ["mysql --defaults-file=my.cnf -e 'SELECT 1'", { level: 'network', opaque: true }],
  ['mysql mydb', { level: 'network', opaque: true }],
  ['mysql -h localhost -u root -p mydb', { level: 'network', opaque: true }],
]);
