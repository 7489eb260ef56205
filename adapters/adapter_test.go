package adapters

import "testing"

func TestTraitsNamesTarget(t *testing.T) {
	cases := []struct {
		a    Adapter
		cfg  map[string]any
		want bool
	}{
		{Go{}, nil, false},
		{Go{}, map[string]any{"processId": 12}, true},
		{Python{}, map[string]any{"port": 5678}, true},
		{Python{}, map[string]any{"port": ""}, false},
		{Python{}, map[string]any{"processId": nil}, false},
		{Python{}, map[string]any{"justMyCode": true}, false},
		{Node{}, map[string]any{"websocketAddress": "ws://127.0.0.1:9229/x"}, true},
		{Python{}, map[string]any{"websocketAddress": "ws://127.0.0.1:9229/x"}, false},
		{NewDart(), map[string]any{"vmServiceUri": "ws://127.0.0.1:8181/ws"}, true},
		{NewDart(), map[string]any{"vmServiceInfoFile": "/tmp/vm.json"}, true},
		{NewDart(), map[string]any{"deviceId": "linux"}, true},
		{NewC(), map[string]any{"vmServiceUri": "ws://127.0.0.1:8181/ws"}, false},
	}
	for _, c := range cases {
		if got := NamesTarget(c.a, c.cfg); got != c.want {
			t.Errorf("NamesTarget(%s, %v) = %v, want %v", c.a.Language(), c.cfg, got, c.want)
		}
	}
}

func TestTraitsIsPath(t *testing.T) {
	cases := []struct {
		a       Adapter
		program string
		want    bool
	}{
		{Java{}, "com.example.Main", false},
		{Java{}, "Main", false},
		{Java{}, "Outer$Inner", false},
		{Java{}, "Main.java", true},
		{Java{}, "app.jar", true},
		{Java{}, "src/Main", true},
		{Java{}, "com.example.main", true},
		{Java{}, "com..Main", true},
		{Java{}, "com.1x.Main", true},
		{Python{}, "-m http.server", false},
		{Python{}, "app.py", true},
		{Python{}, "Main", true}, // a class name only for Java
		{Go{}, "-m pkg", true},   // a module only for Python
		{Go{}, ".", true},
	}
	for _, c := range cases {
		if got := IsPath(c.a, c.program); got != c.want {
			t.Errorf("IsPath(%s, %q) = %v, want %v", c.a.Language(), c.program, got, c.want)
		}
	}
}
