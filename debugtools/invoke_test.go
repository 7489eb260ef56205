package debugtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func runOn(t *testing.T, c *Connection, class, method string, types []string, args string) (*RunResult, bool) {
	t.Helper()
	o, err := ParseOrderedObject(args)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, ok, err := c.Client.Run(ctx, &RunDTO{TargetClassName: class, TargetMethodName: method, TargetMethodParameterTypes: types, TargetMethodContent: *o})
	if err != nil {
		t.Fatal(err)
	}
	return res, ok
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestAgentInvokeDirect(t *testing.T) {
	t.Parallel()
	s := newTestService(t)
	_, c := attachFixture(t, s)
	const svc = "com.example.shop.OrderService"

	res, ok := runOn(t, c, svc, "greet", nil, `{"name":{"type":"simple","content":"Ada"}}`)
	if !ok || str(res.PrintResult) != "Hello, Ada!" || res.ResultClassType != "SIMPLE" {
		t.Fatalf("greet: %+v %s", res, str(res.Throwable))
	}
	// Overloads: parameterTypes choose; key order binds.
	res, ok = runOn(t, c, svc, "add", []string{"java.lang.String", "java.lang.String"}, `{"b":{"type":"simple","content":"x"},"a":{"type":"simple","content":"y"}}`)
	if !ok || str(res.PrintResult) != "xy" {
		t.Fatalf("add(String,String): %+v %s", res, str(res.Throwable))
	}
	res, ok = runOn(t, c, svc, "add", nil, `{"a":{"type":"simple","content":"1"},"b":{"type":"simple","content":"2"}}`)
	if ok || !strings.Contains(str(res.Throwable), "overloaded") {
		t.Fatalf("ambiguous add: %+v", res)
	}
	res, ok = runOn(t, c, "com.example.shop.PriceUtil", "withVat", nil, `{"net":{"type":"simple","content":"10"},"percent":{"type":"simple","content":"19"}}`)
	if !ok || str(res.PrintResult) != "11.9" {
		t.Fatalf("static: %+v %s", res, str(res.Throwable))
	}
	res, ok = runOn(t, c, svc, "describe", nil, `{"status":{"type":"enum","content":"PAID"}}`)
	if !ok || str(res.PrintResult) != "paid/1" {
		t.Fatalf("enum: %+v %s", res, str(res.Throwable))
	}
	res, ok = runOn(t, c, svc, "placeOrder", nil, `{"order":{"type":"json_entity","content":"{\"id\":7,\"customer\":\"Grace\",\"amount\":12.5,\"status\":\"SHIPPED\",\"items\":[\"a\",\"b\"]}"}}`)
	if !ok || !strings.Contains(str(res.PrintResult), "customer=Grace") || res.ResultClassType != "OBJECT" || res.OffsetPath == nil {
		t.Fatalf("pojo: %+v %s", res, str(res.Throwable))
	}
	ctx := context.Background()
	js, err := c.HTTP.ResultView(ctx, *res.OffsetPath, "JSON")
	if err != nil {
		t.Fatal(err)
	}
	var order map[string]any
	if err := json.Unmarshal([]byte(js), &order); err != nil || order["customer"] != "Grace" || order["status"] != "SHIPPED" {
		t.Fatalf("JSON view %s: %v", js, err)
	}
	dbgView, err := c.HTTP.ResultView(ctx, *res.OffsetPath, "DEBUG")
	if err != nil || !strings.Contains(dbgView, `"name":"customer"`) {
		t.Fatalf("DEBUG view %s: %v", dbgView, err)
	}
	// /result/detail walks into the stored object.
	var node struct {
		Name  string `json:"name"`
		Value string `json:"value"`
		Leaf  bool   `json:"leaf"`
	}
	if err := c.HTTP.GetJSON(ctx, "/result/detail", url.Values{"offsetPath": {*res.OffsetPath}, "path": {"status"}}, &node); err != nil || node.Value != "SHIPPED" || node.Name != "status" || !node.Leaf {
		t.Fatalf("detail: %+v %v", node, err)
	}
	// Clearing frees the stored result.
	if err := c.Client.ClearResult(*res.OffsetPath); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := c.HTTP.ResultView(ctx, *res.OffsetPath, "TO_STRING")
		var he *HTTPError
		if errors.As(err, &he) && he.Status == 400 && strings.Contains(he.Body, "no stored result") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("result not freed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, ok = runOn(t, c, svc, "fail", nil, `{"reason":{"type":"simple","content":"no stock"}}`)
	if ok || !strings.Contains(str(res.Throwable), "IllegalStateException: refused: no stock") || !strings.Contains(str(res.Throwable), "at com.example.shop.OrderService.fail(") {
		t.Fatalf("throw: %+v", res)
	}
	// Concurrent runs on one connection are matched by identity.
	errs := make(chan string, 16)
	for i := 0; i < 16; i++ {
		go func(i int) {
			o, _ := ParseOrderedObject(fmt.Sprintf(`{"a":{"type":"simple","content":"%d"},"b":{"type":"simple","content":"1000"}}`, i))
			rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			r, ok, err := c.Client.Run(rctx, &RunDTO{TargetClassName: svc, TargetMethodName: "add", TargetMethodParameterTypes: []string{"int", "int"}, TargetMethodContent: *o})
			switch {
			case err != nil:
				errs <- err.Error()
			case !ok || str(r.PrintResult) != strconv.Itoa(1000+i):
				errs <- fmt.Sprintf("run %d got %s", i, str(r.PrintResult))
			default:
				errs <- ""
			}
		}(i)
	}
	for i := 0; i < 16; i++ {
		if e := <-errs; e != "" {
			t.Fatal(e)
		}
	}
	sql, err := c.HTTP.SQL(ctx, 0, 50, "orders")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sql: %+v", sql)
	logs, err := c.HTTP.Logs(ctx, 0, 50, "", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("logs: %+v", logs)
}
