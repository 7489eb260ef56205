package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/debugtools"
)

type jvmInvokeOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	pid            int
	connectionID   string
	className      string
	methodName     string
	argsJSON       string
	parameterTypes []string
	resultView     string
	classLoader    string
	timeout        time.Duration
	wait           time.Duration
	project        string
	asJSON         bool
}

func newCmdJVMInvoke(f *factory, runF func(context.Context, *jvmInvokeOptions) error) *cobra.Command {
	if runF == nil {
		runF = jvmInvokeRun
	}
	opts := &jvmInvokeOptions{IO: f.io, ToolClient: f.toolClient}
	cmd := &cobra.Command{
		Use:   "invoke --class NAME --method NAME [--args JSON] [--pid PID | --connection-id ID]",
		Short: "Invoke a Java method in a running JVM and print its result",
		Long: `Invoke a method in a running JVM through dbg's agent, as the invoke_java_method tool does: a
Spring bean when there is a Spring context, else a live instance, else a new one; static
methods need none. The JVM is --pid, or the pid a --connection-id ends with (connection ids
are NAME-PID), or the only attachable JVM. The agent is loaded when it is not there yet, and
stays loaded.

--args maps parameter names to {type, content} in declaration order, for example
  --args '{"a":{"type":"simple","content":"40"},"b":{"type":"simple","content":"2"}}'
Types are simple, enum, json_entity, bean, class and file.`,
		Example: `  dbg jvm invoke --pid 4242 --class com.example.PriceUtil --method add --param-types int,int \
    --args '{"a":{"type":"simple","content":"40"},"b":{"type":"simple","content":"2"}}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.validate(); err != nil {
				return err
			}
			return runF(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&opts.pid, "pid", 0, "the JVM's process id")
	fl.StringVar(&opts.connectionID, "connection-id", "", "a DebugTools connection id (NAME-PID, as 'dbg jvm attach' prints)")
	fl.StringVar(&opts.className, "class", "", "fully qualified class name (required)")
	fl.StringVar(&opts.methodName, "method", "", "method name (required)")
	fl.StringVar(&opts.argsJSON, "args", "", "arguments as JSON: {name: {type, content}} in declaration order")
	fl.StringSliceVar(&opts.parameterTypes, "param-types", nil, "parameter types in declaration order, to pick an overload (comma-separated)")
	fl.StringVar(&opts.resultView, "view", "TO_STRING", "result view: TO_STRING, JSON, DEBUG or NONE")
	fl.StringVar(&opts.classLoader, "class-loader", "", "identity of the class loader (default: the connection's default)")
	fl.DurationVar(&opts.timeout, "timeout", 30*time.Second, "how long to wait for the method's answer")
	fl.DurationVar(&opts.wait, "wait", 30*time.Second, "how long to wait for the agent when it must be loaded")
	addProjectFlag(cmd, &opts.project)
	addJSONFlag(cmd, &opts.asJSON)
	_ = cmd.MarkFlagRequired("class")
	_ = cmd.MarkFlagRequired("method")
	cmd.MarkFlagsMutuallyExclusive("pid", "connection-id")
	return cmd
}

// connectionPID is the pid a connection id (NAME-PID) ends with.
var connectionPID = regexp.MustCompile(`-(\d+)$`)

// invokeArgs builds invoke_java_method's arguments from the flags.
func invokeArgs(opts *jvmInvokeOptions, connectionID string) (map[string]any, error) {
	view := strings.ToUpper(strings.TrimSpace(opts.resultView))
	a := map[string]any{"className": opts.className, "methodName": opts.methodName, "resultView": view,
		"timeoutMillis": opts.timeout.Milliseconds()}
	if connectionID != "" {
		a["connectionId"] = connectionID
	}
	if opts.argsJSON != "" {
		if !json.Valid([]byte(opts.argsJSON)) {
			return nil, fmt.Errorf("--args is not valid JSON: %s", opts.argsJSON)
		}
		a["argsJson"] = opts.argsJSON // a string: the tool keeps its key order
	}
	if len(opts.parameterTypes) > 0 {
		a["parameterTypes"] = opts.parameterTypes
	}
	if opts.classLoader != "" {
		a["classLoaderIdentity"] = opts.classLoader
	}
	if opts.project != "" {
		a["projectPath"] = opts.project
	}
	return a, nil
}

// validate checks the flags before anything runs.
func (o *jvmInvokeOptions) validate() error {
	if o.timeout <= 0 || o.wait <= 0 {
		return fmt.Errorf("--timeout and --wait must be positive")
	}
	if o.pid < 0 {
		return fmt.Errorf("--pid must be a process id")
	}
	_, err := invokeArgs(o, "")
	return err
}

func jvmInvokeRun(ctx context.Context, opts *jvmInvokeOptions) error {
	tc, err := opts.ToolClient(ctx, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	connID, err := ensureConnection(ctx, tc, opts.IO.ErrOut, opts)
	if err != nil {
		return toolclient.Finish(opts.IO.Out, opts.asJSON, err)
	}
	args, err := invokeArgs(opts, connID)
	if err != nil {
		return err
	}
	var out debugtools.InvokeOut
	if done, err := tc.CallPrint(ctx, opts.IO, opts.asJSON, "invoke_java_method", args, &out); done &&
		(err == nil || opts.asJSON || out.Throwable == nil || out.OffsetPath == nil) { // a method that threw prints its stack trace
		return err
	}
	return printInvoke(opts.IO.Out, opts.IO.ErrOut, &out)
}

// ensureConnection loads (or finds again) the agent of the target JVM in
// this process and returns its connection id. A one-shot command holds no
// connection yet, so it always goes through attach_local_jvm, which reuses
// an agent already in the JVM.
func ensureConnection(ctx context.Context, tc *toolclient.Client, status io.Writer, opts *jvmInvokeOptions) (string, error) {
	pid := opts.pid
	if opts.connectionID != "" {
		m := connectionPID.FindStringSubmatch(opts.connectionID)
		if m == nil {
			// Not of the NAME-PID form: let the tool say it is unknown.
			return opts.connectionID, nil
		}
		pid, _ = strconv.Atoi(m[1])
	}
	if pid == 0 {
		var list jvmList
		if _, err := tc.Call(ctx, "list_attachable_jvms", map[string]any{}, &list); err != nil {
			return "", err
		}
		var cands []debugtools.JVMOut
		for _, j := range list.JVMs {
			if j.Attachable {
				cands = append(cands, j)
			}
		}
		switch len(cands) {
		case 0:
			return "", fmt.Errorf("no attachable JVM found; start one, or pass --pid")
		case 1:
			pid, _ = strconv.Atoi(cands[0].PID)
		default:
			var names []string
			for _, j := range cands {
				names = append(names, j.PID+" ("+j.DisplayName+")")
			}
			return "", fmt.Errorf("several JVMs could be the target; pass --pid, one of: %s", strings.Join(names, ", "))
		}
	}
	var out debugtools.AttachOut
	if _, err := tc.Call(ctx, "attach_local_jvm", jvmAttachArgs(pid, "", opts.wait), &out); err != nil {
		return "", err
	}
	if out.ConnectionID == nil {
		return "", fmt.Errorf("the agent in pid %d did not answer: %s", pid, out.Message)
	}
	fmt.Fprintf(status, "connection %s (pid %d)\n", *out.ConnectionID, pid)
	if opts.connectionID != "" && opts.connectionID != *out.ConnectionID {
		// The tool answers CONNECTION_NOT_FOUND with the live ids.
		return opts.connectionID, nil
	}
	return *out.ConnectionID, nil
}

// printInvoke prints the result on stdout and the rest on stderr. A
// method that threw is an error (exit status 1) with its stack trace.
func printInvoke(stdout, stderr io.Writer, out *debugtools.InvokeOut) error {
	if out.Throwable != nil && *out.Throwable != "" {
		fmt.Fprintln(stderr, *out.Throwable)
		return fmt.Errorf("%s.%s threw", orDash(out.ClassName), orDash(out.MethodName))
	}
	if out.ResultJSON != nil {
		fmt.Fprintln(stdout, *out.ResultJSON)
	} else if out.Result != nil {
		fmt.Fprintln(stdout, *out.Result)
	}
	if out.ResultFetchError != nil {
		fmt.Fprintf(stderr, "result view: %s\n", *out.ResultFetchError)
	}
	dur := "-"
	if out.DurationMillis != nil {
		dur = fmt.Sprintf("%d ms", *out.DurationMillis)
	}
	fmt.Fprintf(stderr, "%s %s.%s(%s) on %s in %s\n", orDash(out.ResultClassType), orDash(out.ClassName), orDash(out.MethodName),
		strings.Join(out.ParameterTypes, ", "), out.ConnectionID, dur)
	return nil
}
