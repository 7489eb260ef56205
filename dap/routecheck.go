package dap

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	godap "github.com/google/go-dap"
)

// checked holds the routes checkRoute passed, with the index of their
// request's arguments: a router is made for every connection, its routes
// are checked once.
var checked struct {
	sync.RWMutex
	args map[routeKey][]int
}

type routeKey struct {
	command   string
	req, resp reflect.Type
}

// checkRoute panics unless req and resp may serve command (see [On]):
// go-dap's types for it, or the adapter's own whose Arguments (Body)
// embed go-dap's, or any where go-dap's are raw JSON or unknown. It
// returns the index of req's Arguments field (nil: none).
func checkRoute(command string, req godap.RequestMessage, resp godap.ResponseMessage) []int {
	key := routeKey{command, reflect.TypeOf(req), reflect.TypeOf(resp)}
	checked.RLock()
	args, ok := checked.args[key]
	checked.RUnlock()
	if ok {
		return args
	}
	for _, c := range []struct {
		got   any
		msg   string
		field string
	}{
		{req, `{"seq":1,"type":"request","command":%q}`, "Arguments"},
		{resp, `{"seq":1,"type":"response","command":%q,"success":true}`, "Body"},
	} {
		want, err := godap.DecodeProtocolMessage(fmt.Appendf(nil, c.msg, command))
		if err == nil && !fits(reflect.TypeOf(c.got).Elem(), reflect.TypeOf(want).Elem(), c.field) {
			panic(fmt.Sprintf("dap: %T cannot stand for go-dap's %T", c.got, want))
		}
	}
	f, _ := key.req.Elem().FieldByName("Arguments")
	checked.Lock()
	defer checked.Unlock()
	if checked.args == nil {
		checked.args = map[routeKey][]int{}
	}
	checked.args[key] = f.Index
	return f.Index
}

// fits reports whether struct type got may stand for go-dap's want.
func fits(got, want reflect.Type, field string) bool {
	wf, ok := want.FieldByName(field)
	if got == want || ok && wf.Type == reflect.TypeFor[json.RawMessage]() {
		return true
	}
	gf, ok2 := got.FieldByName(field)
	if !ok || !ok2 || gf.Type.Kind() != reflect.Struct {
		return false
	}
	base := wf.Type
	if base.Kind() == reflect.Pointer { // go-dap's optional arguments
		base = base.Elem()
	}
	for i := 0; i < gf.Type.NumField(); i++ {
		if f := gf.Type.Field(i); f.Anonymous && f.Type == base {
			return true
		}
	}
	return false
}
