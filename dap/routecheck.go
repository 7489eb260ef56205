package dap

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	godap "github.com/google/go-dap"
)

// checked holds the routes checkRoute has passed, so that a router made
// for every connection checks its routes once per process.
var checked sync.Map // routeTypes -> struct{}

type routeTypes struct {
	command   string
	req, resp reflect.Type
}

// checkRoute panics unless req and resp may serve command (see [On]).
func checkRoute(command string, req godap.RequestMessage, resp godap.ResponseMessage) {
	key := routeTypes{command, reflect.TypeOf(req), reflect.TypeOf(resp)}
	if _, ok := checked.Load(key); ok {
		return
	}
	wantReq, errReq := godap.DecodeProtocolMessage([]byte(fmt.Sprintf(`{"seq":1,"type":"request","command":%q}`, command)))
	wantResp, errResp := godap.DecodeProtocolMessage([]byte(fmt.Sprintf(`{"seq":1,"type":"response","command":%q,"success":true}`, command)))
	if errReq == nil && !fits(key.req, reflect.TypeOf(wantReq), "Arguments") {
		panic(fmt.Sprintf("dap: %s request is %T, not %v", command, wantReq, key.req))
	}
	if errResp == nil && !fits(key.resp, reflect.TypeOf(wantResp), "Body") {
		panic(fmt.Sprintf("dap: %s response is %T, not %v", command, wantResp, key.resp))
	}
	checked.Store(key, struct{}{})
}

// fits reports whether got may stand for go-dap's want: it is want, or
// its field (Arguments or Body) embeds want's, or want's field is raw
// JSON the adapter defines.
func fits(got, want reflect.Type, field string) bool {
	if got == want {
		return true
	}
	wf, ok := want.Elem().FieldByName(field)
	if !ok {
		return false
	}
	gf, ok := got.Elem().FieldByName(field)
	if !ok {
		return false
	}
	if wf.Type == reflect.TypeOf(json.RawMessage(nil)) {
		return true
	}
	return embeds(gf.Type, wf.Type)
}

// embeds reports whether struct type t (or *t) embeds base (or *base).
func embeds(t, base reflect.Type) bool {
	t, base = deref(t), deref(base)
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.Anonymous && deref(f.Type) == base {
			return true
		}
	}
	return false
}

func deref(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		return t.Elem()
	}
	return t
}
