package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/debugtools"
)

// newJVMCmd groups the JVM commands (SPEC §3): they answer with the
// list_attachable_jvms, attach_local_jvm and invoke_java_method tools.
func newJVMCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "jvm",
		Short: "Find local JVMs, load dbg's agent into one, and invoke its methods (no IDE needed)",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newJVMListCmd(e, nil), newJVMAttachCmd(e, nil), newJVMInvokeCmd(e, nil))
	return cmd
}

type jvmListOptions struct {
	project string
	asJSON  bool
}

func newJVMListCmd(e *env, runF func(*cobra.Command, *jvmListOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(cmd *cobra.Command, opts *jvmListOptions) error { return jvmListRun(cmd, e, opts) }
	}
	opts := &jvmListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List local JVMs: pid, main class, whether they can be attached, and the project's run configuration or module",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runF(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory, to link JVMs to its run configurations (default: the working directory)")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print JSON")
	return cmd
}

// jvmList is the data of list_attachable_jvms.
type jvmList struct {
	Count int                 `json:"count"`
	JVMs  []debugtools.JVMOut `json:"jvms"`
}

func jvmListRun(cmd *cobra.Command, e *env, opts *jvmListOptions) error {
	ctx := cmd.Context()
	tc, err := newToolClient(ctx, e, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	var list jvmList
	raw, err := tc.call(ctx, "list_attachable_jvms", map[string]any{}, &list)
	if err != nil {
		return finish(cmd.OutOrStdout(), opts.asJSON, err)
	}
	if opts.asJSON {
		return writeRawJSON(cmd.OutOrStdout(), raw)
	}
	if len(list.JVMs) == 0 {
		fmt.Fprintln(cmd.ErrOrStderr(), "no JVM found")
		return nil
	}
	w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "PID\tNAME\tATTACH NAME\tATTACHABLE\tCONFIGURATION\tMODULE")
	for _, j := range list.JVMs {
		att := "yes"
		if !j.Attachable {
			att = "no: " + j.Reason
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", j.PID, j.DisplayName, j.AttachName, att, orDash(j.ConfigurationName), orDash(j.ModuleName))
	}
	return w.Flush()
}

type jvmAttachOptions struct {
	pid        int
	attachName string
	wait       time.Duration
	asJSON     bool
}

func newJVMAttachCmd(e *env, runF func(*cobra.Command, *jvmAttachOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(cmd *cobra.Command, opts *jvmAttachOptions) error { return jvmAttachRun(cmd, e, opts) }
	}
	opts := &jvmAttachOptions{}
	cmd := &cobra.Command{
		Use:   "attach PID",
		Short: "Load dbg's agent into a running JVM (HotSpot dynamic attach)",
		Long: `Load dbg's agent into the JVM with process id PID and wait for it to answer. The agent lives in
the JVM and keeps running after this command exits: later 'dbg jvm invoke --pid PID' calls and
MCP servers reuse it (loading it again keeps the first instance). JVMs started with
-XX:+DisableAttachMechanism, -Xrs or -XX:+ReduceSignalUsage are refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pid, err := strconv.Atoi(args[0])
			if err != nil || pid <= 0 {
				return fmt.Errorf("PID must be a process id, not %q", args[0])
			}
			opts.pid = pid
			if opts.wait < 0 {
				return fmt.Errorf("--wait must not be negative")
			}
			return runF(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.attachName, "name", "", "application name of the connection (default: from the main class)")
	cmd.Flags().DurationVar(&opts.wait, "wait", 30*time.Second, "how long to wait for the agent to answer (0 = only trigger the attach)")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print JSON")
	return cmd
}

func jvmAttachRun(cmd *cobra.Command, e *env, opts *jvmAttachOptions) error {
	ctx := cmd.Context()
	tc, err := newToolClient(ctx, e, "")
	if err != nil {
		return err
	}
	defer tc.Close()
	var out debugtools.AttachOut
	raw, err := tc.call(ctx, "attach_local_jvm", attachArgs(opts.pid, opts.attachName, opts.wait), &out)
	if err != nil {
		return finish(cmd.OutOrStdout(), opts.asJSON, err)
	}
	if opts.asJSON {
		return writeRawJSON(cmd.OutOrStdout(), raw)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), out.Message)
	w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "pid\t%s\n", out.PID)
	fmt.Fprintf(w, "attachName\t%s\n", orDash(out.AttachName))
	fmt.Fprintf(w, "connectionId\t%s\n", orDash(out.ConnectionID))
	fmt.Fprintf(w, "port\t%s\n", orDash(out.Port))
	fmt.Fprintf(w, "httpPort\t%s\n", orDash(out.HTTPPort))
	return w.Flush()
}

func attachArgs(pid int, name string, wait time.Duration) map[string]any {
	a := map[string]any{"pid": strconv.Itoa(pid), "waitForConnectionMillis": wait.Milliseconds()}
	if name != "" {
		a["attachName"] = name
	}
	return a
}

type jvmInvokeOptions struct {
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

func newJVMInvokeCmd(e *env, runF func(*cobra.Command, *jvmInvokeOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(cmd *cobra.Command, opts *jvmInvokeOptions) error { return jvmInvokeRun(cmd, e, opts) }
	}
	opts := &jvmInvokeOptions{}
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
			return runF(cmd, opts)
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.pid, "pid", 0, "the JVM's process id")
	f.StringVar(&opts.connectionID, "connection-id", "", "a DebugTools connection id (NAME-PID, as 'dbg jvm attach' prints)")
	f.StringVar(&opts.className, "class", "", "fully qualified class name (required)")
	f.StringVar(&opts.methodName, "method", "", "method name (required)")
	f.StringVar(&opts.argsJSON, "args", "", "arguments as JSON: {name: {type, content}} in declaration order")
	f.StringSliceVar(&opts.parameterTypes, "param-types", nil, "parameter types in declaration order, to pick an overload (comma-separated)")
	f.StringVar(&opts.resultView, "view", "TO_STRING", "result view: TO_STRING, JSON, DEBUG or NONE")
	f.StringVar(&opts.classLoader, "class-loader", "", "identity of the class loader (default: the connection's default)")
	f.DurationVar(&opts.timeout, "timeout", 30*time.Second, "how long to wait for the method's answer")
	f.DurationVar(&opts.wait, "wait", 30*time.Second, "how long to wait for the agent when it must be loaded")
	f.StringVar(&opts.project, "project", "", "the project directory (default: the working directory)")
	f.BoolVar(&opts.asJSON, "json", false, "print JSON")
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

func jvmInvokeRun(cmd *cobra.Command, e *env, opts *jvmInvokeOptions) error {
	ctx := cmd.Context()
	tc, err := newToolClient(ctx, e, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	connID, err := ensureConnection(ctx, tc, cmd.ErrOrStderr(), opts)
	if err != nil {
		return finish(cmd.OutOrStdout(), opts.asJSON, err)
	}
	args, err := invokeArgs(opts, connID)
	if err != nil {
		return err
	}
	var out debugtools.InvokeOut
	raw, err := tc.call(ctx, "invoke_java_method", args, &out)
	if err != nil && (opts.asJSON || out.Throwable == nil || out.OffsetPath == nil) { // a method that threw prints its stack trace
		return finish(cmd.OutOrStdout(), opts.asJSON, err)
	}
	if opts.asJSON {
		return writeRawJSON(cmd.OutOrStdout(), raw)
	}
	return printInvoke(cmd.OutOrStdout(), cmd.ErrOrStderr(), &out)
}

// ensureConnection loads (or finds again) the agent of the target JVM in
// this process and returns its connection id. A one-shot command holds no
// connection yet, so it always goes through attach_local_jvm, which reuses
// an agent already in the JVM.
func ensureConnection(ctx context.Context, tc *toolClient, status io.Writer, opts *jvmInvokeOptions) (string, error) {
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
		if _, err := tc.call(ctx, "list_attachable_jvms", map[string]any{}, &list); err != nil {
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
	if _, err := tc.call(ctx, "attach_local_jvm", attachArgs(pid, "", opts.wait), &out); err != nil {
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
