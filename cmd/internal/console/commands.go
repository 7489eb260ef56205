package console

import (
	"fmt"
	"sort"
	"strings"
)

// command is one console command.
type command struct {
	names []string // the name, then the short forms
	usage string
	help  string
	run   func(p *prompt, arg string) error
	// args completes the argument being typed: the word it completes
	// and the candidates (nil = nothing to offer).
	args func(p *prompt, arg string) (string, []string)
}

// commands are the console's commands, in the order help lists them.
// Built on first use: the table refers to methods that refer to it.
var commands []*command

func init() {
	commands = []*command{
		{names: []string{"break", "b"}, usage: "break FILE:LINE [if COND] | break LINE | break FUNC", help: "Set a breakpoint at a line (LINE alone: in the current file) or on a function; `if COND` stops only when COND is true.", run: (*prompt).cmdBreak, args: (*prompt).completeFile},
		{names: []string{"tbreak", "tb"}, usage: "tbreak FILE:LINE | tbreak FUNC", help: "Set a breakpoint removed once it is hit.", run: (*prompt).cmdTBreak, args: (*prompt).completeFile},
		{names: []string{"watch"}, usage: "watch EXPR", help: "Stop when the value of EXPR is written (a data breakpoint, where the adapter supports them).", run: (*prompt).cmdWatch, args: (*prompt).completeName},
		{names: []string{"delete", "d", "clear"}, usage: "delete [N]", help: "Remove breakpoint N, or every breakpoint.", run: (*prompt).cmdDelete},
		{names: []string{"breakpoints", "bp", "info-breakpoints"}, usage: "breakpoints", help: "List the breakpoints.", run: (*prompt).cmdBreakpoints},
		{names: []string{"continue", "c", "cont"}, usage: "continue", help: "Resume and wait for the next stop (Ctrl-C pauses).", run: (*prompt).cmdContinue},
		{names: []string{"next", "n"}, usage: "next", help: "Step over to the next line.", run: stepCommand("step_over")},
		{names: []string{"step", "s"}, usage: "step", help: "Step into the call on this line.", run: stepCommand("step_into")},
		{names: []string{"out", "o", "finish", "stepout"}, usage: "out", help: "Run until the current function returns.", run: stepCommand("step_out")},
		{names: []string{"until", "u"}, usage: "until LINE | until FILE:LINE", help: "Run to a line of the current file (or FILE) and wait for the stop.", run: (*prompt).cmdUntil, args: (*prompt).completeFile},
		{names: []string{"pause"}, usage: "pause", help: "Pause the running program.", run: (*prompt).cmdPause},
		{names: []string{"wait", "w"}, usage: "wait", help: "Wait for the next stop.", run: (*prompt).cmdWait},
		{names: []string{"restart", "r"}, usage: "restart", help: "Relaunch the program with the same breakpoints (launched programs).", run: (*prompt).cmdRestart},
		{names: []string{"bt", "backtrace", "where", "stack"}, usage: "bt", help: "Print the stack of the stopped thread.", run: (*prompt).cmdBacktrace},
		{names: []string{"frame", "f"}, usage: "frame N", help: "Select frame N of bt (locals, print and set use it).", run: (*prompt).cmdFrame},
		{names: []string{"up"}, usage: "up [N]", help: "Select the caller's frame.", run: (*prompt).cmdUp},
		{names: []string{"down"}, usage: "down [N]", help: "Select the callee's frame.", run: (*prompt).cmdDown},
		{names: []string{"locals"}, usage: "locals", help: "Print the selected frame's local variables.", run: (*prompt).cmdLocals},
		{names: []string{"args"}, usage: "args", help: "Print the selected frame's arguments.", run: (*prompt).cmdArgs},
		{names: []string{"print", "p", "eval"}, usage: "print EXPR", help: "Evaluate EXPR in the selected frame.", run: (*prompt).cmdPrint, args: (*prompt).completeName},
		{names: []string{"set"}, usage: "set VAR = VALUE", help: "Change a variable of the selected frame.", run: (*prompt).cmdSet, args: (*prompt).completeName},
		{names: []string{"display", "disp"}, usage: "display [EXPR]", help: "Show EXPR at every stop; alone, list the displays.", run: (*prompt).cmdDisplay, args: (*prompt).completeName},
		{names: []string{"undisplay"}, usage: "undisplay N", help: "Stop showing display N.", run: (*prompt).cmdUndisplay},
		{names: []string{"threads"}, usage: "threads", help: "List the threads.", run: (*prompt).cmdThreads},
		{names: []string{"thread", "t"}, usage: "thread N", help: "Select thread N (bt, steps and continue act on it).", run: (*prompt).cmdThread},
		{names: []string{"list", "l", "ls"}, usage: "list [LINE]", help: "Show the source around the stop (or LINE), the current line marked.", run: (*prompt).cmdList},
		{names: []string{"output"}, usage: "output", help: "Print the program's output since the last `output`.", run: (*prompt).cmdOutput},
		{names: []string{"detach"}, usage: "detach", help: "Detach and quit; the process keeps running.", run: (*prompt).cmdDetach},
		{names: []string{"kill", "k"}, usage: "kill", help: "End the program and quit (asks first).", run: (*prompt).cmdKill},
		{names: []string{"quit", "q", "exit"}, usage: "quit", help: "Quit: an attached process is detached and keeps running, a launched one ends.", run: (*prompt).cmdQuit},
		{names: []string{"help", "h", "?"}, usage: "help [CMD]", help: "List the commands, or explain one.", run: (*prompt).cmdHelp, args: func(_ *prompt, arg string) (string, []string) { return arg, commandNames(arg) }},
	}
}

// lookup finds a command by name or short form.
func lookup(name string) *command {
	for _, c := range commands {
		for _, n := range c.names {
			if n == name {
				return c
			}
		}
	}
	return nil
}

// commandNames are the command names starting with prefix, sorted.
func commandNames(prefix string) []string {
	var out []string
	for _, c := range commands {
		if strings.HasPrefix(c.names[0], prefix) {
			out = append(out, c.names[0])
		}
	}
	sort.Strings(out)
	return out
}

func (p *prompt) cmdHelp(arg string) error {
	if arg != "" {
		c := lookup(arg)
		if c == nil {
			return fmt.Errorf("unknown command %q (help lists the commands)", arg)
		}
		fmt.Fprintf(p.io.Out, "%s\n  %s\n", c.usage, c.help)
		if len(c.names) > 1 {
			fmt.Fprintf(p.io.Out, "  short: %s\n", strings.Join(c.names[1:], ", "))
		}
		return nil
	}
	for _, c := range commands {
		short := ""
		if len(c.names) > 1 {
			short = " (" + c.names[1] + ")"
		}
		fmt.Fprintf(p.io.Out, "  %-40s %s\n", c.usage+short, c.help)
	}
	return nil
}
