// An HTTP service that waits for requests: between them every goroutine
// is parked (the listener in accept), so no thread runs Go code. A target
// for attaching to an idle process.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
)

func greet(name string) string {
	msg := "hello " + strings.TrimSpace(name) // GREET
	return msg
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	http.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, greet(r.URL.Query().Get("name")))
	})
	fmt.Println("ready", os.Getpid(), ln.Addr().(*net.TCPAddr).Port)
	if err := http.Serve(ln, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
