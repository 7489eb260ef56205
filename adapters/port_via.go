package adapters

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/adapters/javadap"
)

// The languages whose programs serve a debugger on a port of their own:
// dbg reads the port from the program's command line on the target and
// forwards it.

// javaRemote: a JVM started with a JDWP agent listening on a socket.
func javaRemote() *Remote {
	return &Remote{Env: []string{"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"}, Port: func(argv []string, env map[string]string) (string, int, error) {
		argv = append(append(argv, strings.Fields(env["JAVA_TOOL_OPTIONS"])...), strings.Fields(env["JDK_JAVA_OPTIONS"])...)
		addr, ok := javadap.JDWPAddressOfCommandLine(argv)
		if !ok {
			return "", 0, fmt.Errorf("the JVM was not started with a JDWP agent listening on a socket: restart it with " +
				"-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005 (loopback only: JDWP runs any code for whoever reaches it)")
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return "", 0, err
		}
		n, err := strconv.Atoi(port)
		if err != nil {
			return "", 0, err
		}
		if jdwpEveryAddress.MatchString(strings.Join(argv, " ")) {
			host = "*"
		}
		return host, n, nil
	}}
}

// jdwpEveryAddress finds a JDWP address with no host, or every host.
var jdwpEveryAddress = regexp.MustCompile(`jdwp=\S*address=(\*|0\.0\.0\.0|\[::\]|::):\d+`)

// nodeInspectFlag is node's --inspect, --inspect-brk, --inspect-wait or
// --inspect-port, with its [host:]port.
var nodeInspectFlag = regexp.MustCompile(`^--inspect(?:-brk|-wait|-port)?(?:=(.*))?$`)

// nodeRemote: USR1 opens node's inspector, on the address of its
// --inspect flags or 127.0.0.1:9229.
func nodeRemote() *Remote {
	return &Remote{Signal: "USR1", Env: []string{"NODE_OPTIONS"}, Port: func(argv []string, env map[string]string) (string, int, error) {
		host, port := "127.0.0.1", 9229
		for _, a := range append(strings.Fields(env["NODE_OPTIONS"]), argv...) {
			m := nodeInspectFlag.FindStringSubmatch(a)
			if m == nil || m[1] == "" {
				continue
			}
			h, p, err := net.SplitHostPort(m[1])
			if err != nil {
				h, p = "", m[1]
			}
			if n, err := strconv.Atoi(p); err == nil && n > 0 {
				port = n
				if h != "" {
					host = h
				}
			}
		}
		return host, port, nil
	}}
}

// rubyRemote: a program run by `rdbg --open --port P` (which runs it
// with RUBY_DEBUG_PORT and RUBY_DEBUG_HOST), or with those variables and
// -r debug/open.
func rubyRemote() *Remote {
	return &Remote{Env: []string{"RUBY_DEBUG_PORT", "RUBY_DEBUG_HOST"}, Port: func(argv []string, env map[string]string) (string, int, error) {
		host, port := "127.0.0.1", 0
		if h := env["RUBY_DEBUG_HOST"]; h != "" {
			host = h
		}
		if n, err := strconv.Atoi(env["RUBY_DEBUG_PORT"]); err == nil && n > 0 {
			port = n
		}
		for i, a := range argv {
			v, next := "", i+1 < len(argv)
			switch {
			case a == "--port" && next:
				v = argv[i+1]
			case strings.HasPrefix(a, "--port="):
				v = strings.TrimPrefix(a, "--port=")
			case a == "--host" && next:
				host = argv[i+1]
			case strings.HasPrefix(a, "--host="):
				host = strings.TrimPrefix(a, "--host=")
			}
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				port = n
			}
		}
		if port == 0 {
			return "", 0, fmt.Errorf("the program does not serve rdbg on a TCP port: start it with rdbg --open --host 127.0.0.1 --port 12345 -- SCRIPT.rb")
		}
		return host, port, nil
	}}
}
