package ide

import (
	"bufio"
	"bytes"
	"strings"
)

// readEnvFile reads a dotenv file as VS Code's envFile: KEY=VALUE lines,
// # comments, an optional "export " prefix, values optionally in single
// or double quotes (\n in double quotes is a newline).
func readEnvFile(path string) (map[string]string, error) {
	b, err := readRegular(path, maxConfigFile)
	if err != nil {
		return nil, err
	}
	return parseEnvFile(b), nil
}

func parseEnvFile(b []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			continue
		}
		v = strings.TrimSpace(v)
		switch {
		case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
			v = strings.ReplaceAll(v[1:len(v)-1], `\n`, "\n")
		case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
			v = v[1 : len(v)-1]
		default:
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
		}
		out[k] = v
	}
	return out
}
