# An HTTP server on loopback that greets the name in the path.
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


class Greeter(BaseHTTPRequestHandler):
    def do_GET(self):
        name = self.path.strip("/")
        greeting = f"hello {name}"  # BP:server
        body = greeting.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", int(sys.argv[1])), Greeter)
print("server ready", flush=True)
server.serve_forever()
