package cfgfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// server is the kind of entry an MCP client's configuration holds.
func server(stdio bool, command string, args ...string) Object {
	var o Object
	if stdio {
		o = append(o, Field{"type", "stdio"})
	}
	return append(o, Field{"command", command}, Field{"args", args})
}

func TestSetJSONMemberExact(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{
			name: "tabs, trailing comma, comment after the last member",
			in:   "{\n\t// mine\n\t\"servers\": {\n\t\t\"other\": {\"command\": \"x\"}, // keep\n\t},\n\t/* tail */\n}\n",
			want: "{\n\t// mine\n\t\"servers\": {\n\t\t\"other\": {\"command\": \"x\"}, // keep\n\t\t\"dbg\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"/d\",\n\t\t\t\"args\": [\"mcp\"]\n\t\t},\n\t},\n\t/* tail */\n}\n",
		},
		{
			name: "no trailing comma, comment kept on its member's line",
			in:   "{\n    \"servers\": {\n        \"other\": {} // keep\n    }\n}",
			want: "{\n    \"servers\": {\n        \"other\": {}, // keep\n        \"dbg\": {\n            \"type\": \"stdio\",\n            \"command\": \"/d\",\n            \"args\": [\"mcp\"]\n        }\n    }\n}",
		},
		{
			name: "servers object missing",
			in:   "{\"a\": 1}\n",
			want: "{\"a\": 1,\n  \"servers\": {\n    \"dbg\": {\n      \"type\": \"stdio\",\n      \"command\": \"/d\",\n      \"args\": [\"mcp\"]\n    }\n  }}\n",
		},
		{
			name: "empty servers with a comment, CRLF",
			in:   "{\r\n  \"servers\": { // none yet\r\n  }\r\n}\r\n",
			want: "{\r\n  \"servers\": {\r\n    \"dbg\": {\r\n      \"type\": \"stdio\",\r\n      \"command\": \"/d\",\r\n      \"args\": [\"mcp\"]\r\n    } // none yet\r\n  }\r\n}\r\n",
		},
		{
			name: "existing entry replaced in place",
			in:   "{\n  \"servers\": {\n    \"dbg\": {\"command\": \"old\", \"args\": []}, // mine\n    \"z\": {}\n  }\n}\n",
			want: "{\n  \"servers\": {\n    \"dbg\": {\n      \"type\": \"stdio\",\n      \"command\": \"/d\",\n      \"args\": [\"mcp\"]\n    }, // mine\n    \"z\": {}\n  }\n}\n",
		},
		{
			name: "null servers",
			in:   "{\n  \"servers\": null\n}\n",
			want: "{\n  \"servers\": {\n    \"dbg\": {\n      \"type\": \"stdio\",\n      \"command\": \"/d\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := SetJSONMember([]byte(tc.in), "servers", "dbg", server(true, "/d", "mcp"))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSetJSONMemberRefuses(t *testing.T) {
	for _, tc := range []struct{ name, in, why string }{
		{"broken", "{\n  \"mcpServers\": {\n", "cannot parse"},
		{"array at the top", "[]", "not an object"},
		{"servers not an object", `{"mcpServers": []}`, "not an object"},
		{"servers twice", `{"mcpServers": {}, "mcpServers": {}}`, "twice"},
		{"entry twice", `{"mcpServers": {"dbg": {}, "dbg": {}}}`, "twice"},
		{"only comments", "// nothing\n", "only comments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := SetJSONMember([]byte(tc.in), "mcpServers", "dbg", server(false, "/d"))
			if err == nil || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("err = %v; want a refusal saying %q", err, tc.why)
			}
		})
	}
}

func TestSetJSONMemberNewFile(t *testing.T) {
	out, replaced, err := SetJSONMember(nil, "mcpServers", "dbg", server(true, "/d", "mcp"))
	if err != nil || replaced {
		t.Fatal(err, replaced)
	}
	want := "{\n  \"mcpServers\": {\n    \"dbg\": {\n      \"type\": \"stdio\",\n      \"command\": \"/d\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if got := JSONSnippet("mcpServers", "dbg", server(false, "/d")); got != "\"mcpServers\": {\n  \"dbg\": {\n    \"command\": \"/d\",\n    \"args\": []\n  }\n}\n" {
		t.Fatalf("snippet\n%s", got)
	}
}

func TestSetTOMLTableKeepsOtherTables(t *testing.T) {
	orig := `model = "o3" # default model

[mcp_servers.other]
command = "x"
args = [
  "a", # first
  "[b]",
]

[mcp_servers.dbg]
command = "old"
args = ["mcp"]

[mcp_servers.dbg.env]
A = "1"

# fast profile
[profiles.fast]
notes = """
[mcp_servers.dbg]
"""
`
	want := `model = "o3" # default model

[mcp_servers.other]
command = "x"
args = [
  "a", # first
  "[b]",
]

[mcp_servers.dbg]
command = "/usr/local/bin/dbg"
args = ["mcp", "--project", "/work/app"]

# fast profile
[profiles.fast]
notes = """
[mcp_servers.dbg]
"""
`
	out, replaced, err := SetTOMLTable([]byte(orig), "mcp_servers", "dbg", server(false, "/usr/local/bin/dbg", "mcp", "--project", "/work/app"))
	if err != nil || !replaced || string(out) != want {
		t.Fatalf("replaced %v, err %v, got\n%s\nwant\n%s", replaced, err, out, want)
	}
}

func TestSetTOMLTableAppends(t *testing.T) {
	orig := "model = \"o3\"\n[mcp_servers.other]\ncommand = \"x\""
	out, replaced, err := SetTOMLTable([]byte(orig), "mcp_servers", "dbg", server(false, "/d", "mcp"))
	want := orig + "\n\n[mcp_servers.dbg]\ncommand = \"/d\"\nargs = [\"mcp\"]\n"
	if err != nil || replaced || string(out) != want {
		t.Fatalf("replaced %v, err %v, got\n%s\nwant\n%s", replaced, err, out, want)
	}
	out, _, err = SetTOMLTable(nil, "mcp_servers", "my dbg", server(false, `C:\dbg "x"\dbg.exe`, "mcp"))
	want = "[mcp_servers.\"my dbg\"]\ncommand = \"C:\\\\dbg \\\"x\\\"\\\\dbg.exe\"\nargs = [\"mcp\"]\n"
	if err != nil || string(out) != want {
		t.Fatalf("new file: %v\n%s\nwant\n%s", err, out, want)
	}
}

func TestSetTOMLTableRefusesInlineEntries(t *testing.T) {
	for _, in := range []string{
		"mcp_servers = { dbg = { command = \"x\" } }\n",
		"[mcp_servers]\ndbg = { command = \"x\" }\n",
		"mcp_servers.dbg.command = \"x\"\n",
		"[mcp_servers\n",
		"[[mcp_servers.dbg]]\ncommand = \"x\"\n",
	} {
		got, _, err := SetTOMLTable([]byte(in), "mcp_servers", "dbg", server(false, "/d", "mcp"))
		if err == nil {
			t.Errorf("%q: edited to\n%s\nwant a refusal", in, got)
		}
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, []byte("new"), 0o640); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(b) != "new" || st.Mode().Perm() != 0o640 {
		t.Fatalf("%q mode %v", b, st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("files left behind: %v", ents)
	}
	if err := WriteAtomic(filepath.Join(dir, "missing", "x"), nil, 0o600); err == nil {
		t.Fatal("wrote into a missing directory")
	}
}

func TestDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n"
	b := "1\n2\n3\n4\nfive\n6\n7\n8\n"
	want := "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
	if got := Diff("a", "b", []byte(a), []byte(b)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func FuzzSetJSONMember(f *testing.F) {
	for _, s := range []string{
		"", "{}", "{\n  // c\n  \"mcpServers\": {\"a\": {},},\n}", `{"mcpServers": {"dbg": 1}}`,
		"{\"mcpServers\": null /* x */}", "[1, 2]", `{"a": "\u00e9\"", "b": [true, null, -1.5e3]}`,
	} {
		f.Add([]byte(s))
	}
	en := server(true, `/x/"dbg"`, "mcp")
	f.Fuzz(func(t *testing.T, src []byte) {
		out, _, err := SetJSONMember(src, "mcpServers", "dbg", en)
		if err != nil {
			return
		}
		root, err := Parse(out)
		if err != nil || root == nil {
			t.Fatalf("edit of %q gave unparsable %q: %v", src, out, err)
		}
		v, err := root.Decode(out)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(v.(map[string]any)["mcpServers"].(map[string]any)["dbg"])
		want, _ := json.Marshal(en.Value())
		if string(got) != string(want) {
			t.Fatalf("entry = %s, want %s", got, want)
		}
	})
}

func FuzzSetTOMLTable(f *testing.F) {
	for _, s := range []string{
		"", "a = 1\n[mcp_servers.dbg]\ncommand = \"x\"\n", "[t]\ns = '''\n[x]\n'''\narr = [\n 1, # c\n]\n",
		"[\"mcp_servers\".'dbg'.env]\nA = \"\\u0041\"\n",
	} {
		f.Add([]byte(s))
	}
	en := server(false, "/d", "mcp")
	f.Fuzz(func(t *testing.T, src []byte) {
		out, _, err := SetTOMLTable(src, "mcp_servers", "dbg", en)
		if err != nil {
			return
		}
		if !bytes.Contains(out, []byte("[mcp_servers.dbg]\ncommand = \"/d\"\n")) && !bytes.Contains(out, []byte("[mcp_servers.dbg]\r\ncommand = \"/d\"\r\n")) {
			t.Fatalf("edit of %q lacks the table: %q", src, out)
		}
		if _, err := scanTOML(out); err != nil {
			t.Fatalf("edit of %q gave unscannable %q: %v", src, out, err)
		}
	})
}
