// A small HTTP server for attach tests: answers every request with a hit
// count. The first argument is the port (0 picks one); it prints
// "listening PORT" once it accepts connections.
const http = require('http');

let hits = 0;
function handle(req, res) {
  hits++; // BP:handle
  res.end(`hits=${hits}\n`);
}

const server = http.createServer(handle);
server.listen(Number(process.argv[2] || 0), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
