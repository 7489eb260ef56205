package main

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

// oneShotCmd builds verb name's command with runF capturing its options.
func oneShotCmd(name string) func(*factory, func(context.Context, *oneShotOptions) error) *cobra.Command {
	for _, v := range oneShotVerbs {
		if strings.Fields(v.use)[0] == name {
			return func(f *factory, runF func(context.Context, *oneShotOptions) error) *cobra.Command {
				return newCmdOneShot(f, v, runF)
			}
		}
	}
	panic("no one-shot verb " + name)
}

func TestFlagsOneShot(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		verb string
		want map[string]any
	}{
		{[]string{"go-1", "main.go:12", "if", "i", "==", "3"}, "break", map[string]any{"line": 12, "condition": "i == 3"}},
		{[]string{"go-1", "main.add"}, "break", map[string]any{"function": "main.add"}},
		{[]string{"go-1", "total", "+", "1"}, "print", map[string]any{"expression": "total + 1"}},
		{[]string{"go-1", "total", "=", "5"}, "set", map[string]any{"name": "total", "value": "5"}},
		{[]string{"go-1", "4"}, "delete", map[string]any{"breakpointId": 4}},
		{[]string{"go-1"}, "continue", map[string]any{}},
	}
	for _, c := range cases {
		o, err := parseFlags(t, oneShotCmd(c.verb), c.args...)
		if err != nil || o.session != "go-1" || o.ToolClient == nil {
			t.Fatalf("%s %v: %+v %v", c.verb, c.args, o, err)
		}
		args, err := o.verb.args(o.rest)
		if err != nil {
			t.Fatalf("%s %v: %v", c.verb, c.args, err)
		}
		delete(args, "file")
		if !reflect.DeepEqual(args, c.want) {
			t.Errorf("%s %v: %v, want %v", c.verb, c.args, args, c.want)
		}
	}
	o, err := parseFlags(t, oneShotCmd("continue"), "go-1", "--wait", "2s")
	if err != nil || o.wait != 2*time.Second {
		t.Fatalf("--wait: %+v %v", o, err)
	}
	if o, err = parseFlags(t, oneShotCmd("locals"), "go-1", "--frame", "2"); err != nil || o.frame != 2 {
		t.Fatalf("--frame: %+v %v", o, err)
	}
	for _, verb := range []string{"break", "print", "continue"} {
		if _, err := parseFlags(t, oneShotCmd(verb)); err == nil || !strings.Contains(err.Error(), "requires at least") {
			t.Errorf("%s without a session: %v", verb, err)
		}
	}
	if _, err := parseFlags(t, newCmdStop, "--project", "/p"); err != nil {
		t.Fatal(err)
	}
}

// The verbs' own argument errors come before any daemon is started.
func TestOneShotBadArguments(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		verb string
		args []string
		want string
	}{
		{"break", []string{"go-1", "x.go:abc"}, "not a number"},
		{"delete", []string{"go-1", "x"}, "is not a number"},
		{"set", []string{"go-1", "total"}, "usage: set VAR = VALUE"},
		{"until", []string{"go-1", "12"}, "want FILE:LINE"},
	} {
		o, err := parseFlags(t, oneShotCmd(c.verb), c.args...)
		if err != nil {
			t.Fatal(err)
		}
		o.ToolClient = nil // never reached
		if err := oneShotRun(context.Background(), o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want %q", c.verb, c.args, err, c.want)
		}
	}
}

// Without a terminal, attach needs --pid: there is no one to pick.
func TestAttachNeedsPID(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := iostreams.Test()
	err := attachRun(context.Background(), &attachOptions{consoleOptions: consoleOptions{IO: ios}})
	if err == nil || !strings.Contains(err.Error(), "--pid (or --port) is required") {
		t.Fatalf("err %v", err)
	}
}
