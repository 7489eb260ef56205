// Calls the server on loopback once it answers, and prints its greeting.
const http = require('http');
const port = Number(process.argv[2]);

function call(name) {
  const url = `http://127.0.0.1:${port}/${name}`; // BP:client
  http.get(url, (res) => {
    let body = '';
    res.on('data', (d) => { body += d; });
    res.on('end', () => console.log('client got', body));
  }).on('error', (e) => console.log('client failed', e.message));
}

// The server may still be starting: wait until it listens.
function whenUp(then) {
  const sock = require('net').connect(port, '127.0.0.1', () => { sock.end(); then(); });
  sock.on('error', () => setTimeout(() => whenUp(then), 50));
}

whenUp(() => call('ada'));
