package console

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// variablesOut is what the variable tools answer.
type variablesOut struct {
	Variables  []sessions.Variable  `json:"variables"`
	Truncation *sessions.Truncation `json:"truncation"`
}

func (p *prompt) cmdLocals(string) error {
	var out variablesOut
	return p.call("get_local_variables", p.frameArgs(), &out, func() { p.printVariables(out) })
}

// printVariables prints one variable a line.
func (p *prompt) printVariables(out variablesOut) {
	if len(out.Variables) == 0 {
		p.printf("no variables\n")
	}
	for _, v := range out.Variables {
		p.printf("%s %s= %s\n", p.paint.name(v.Name), typeOf(v.Type), v.Value)
	}
	if out.Truncation != nil && out.Truncation.Note != "" {
		p.printf("(%s)\n", out.Truncation.Note)
	}
}

func typeOf(t string) string {
	if t == "" {
		return ""
	}
	return t + " "
}

func (p *prompt) cmdArgs(string) error {
	var sc struct {
		Scopes []sessions.Scope `json:"scopes"`
	}
	if _, err := p.tools.Call(p.ctx, "get_scopes", p.frameArgs(), &sc); err != nil {
		return err
	}
	var names []string
	for _, s := range sc.Scopes {
		names = append(names, s.Name)
		if strings.Contains(strings.ToLower(s.Name), "argument") {
			var out variablesOut
			return p.call("get_variables", map[string]any{"sessionId": p.id, "scope": s.VariablesReference}, &out, func() { p.printVariables(out) })
		}
	}
	return fmt.Errorf("the adapter gives this frame no arguments scope (scopes: %s); locals lists the arguments with the other variables", strings.Join(names, ", "))
}

func (p *prompt) cmdPrint(arg string) error {
	if arg == "" {
		return fmt.Errorf("usage: print EXPR")
	}
	a := p.frameArgs()
	a["expression"] = arg
	var ev sessions.EvalResult
	return p.call("evaluate_expression", a, &ev, func() { p.printf("%s\n", ev.Result) })
}

func (p *prompt) cmdSet(arg string) error {
	name, value, err := SetArgs(arg)
	if err != nil {
		return err
	}
	a := p.frameArgs()
	a["name"], a["value"] = name, value
	var ev sessions.EvalResult
	return p.call("set_variable", a, &ev, func() {
		p.names = nil
		p.printf("%s = %s\n", p.paint.name(name), ev.Result)
	})
}

func (p *prompt) cmdDisplay(arg string) error {
	if arg != "" {
		p.displays = append(p.displays, arg)
		if p.stop != nil {
			p.showDisplay(len(p.displays)-1, arg)
		}
		return nil
	}
	if len(p.displays) == 0 {
		p.printf("no displays (display EXPR adds one)\n")
	}
	for i, d := range p.displays {
		p.printf("%d: %s\n", i+1, d)
	}
	return nil
}

func (p *prompt) cmdUndisplay(arg string) error {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > len(p.displays) {
		return fmt.Errorf("usage: undisplay N (N from display)")
	}
	p.displays = append(p.displays[:n-1], p.displays[n:]...)
	return nil
}

// showDisplays evaluates every display at a stop.
func (p *prompt) showDisplays() {
	for i, d := range p.displays {
		p.showDisplay(i, d)
	}
}

func (p *prompt) showDisplay(i int, expr string) {
	a := p.frameArgs()
	a["expression"] = expr
	var ev sessions.EvalResult
	if _, err := p.tools.Call(p.ctx, "evaluate_expression", a, &ev); err != nil {
		msg := err.Error()
		if j := strings.IndexByte(msg, '\n'); j >= 0 {
			msg = msg[:j]
		}
		p.printf("%d: %s = <%s>\n", i+1, expr, msg)
		return
	}
	p.printf("%d: %s = %s\n", i+1, expr, ev.Result)
}
