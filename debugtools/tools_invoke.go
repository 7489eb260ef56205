package debugtools

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

var stringType = reflect.TypeOf("")

// Result views of invoke_java_method.
const (
	ViewToString = "TO_STRING"
	ViewJSON     = "JSON"
	ViewDebug    = "DEBUG"
	ViewNone     = "NONE"
)

// Result fetch states.
const (
	FetchNotRequested = "NOT_REQUESTED"
	FetchSkipped      = "SKIPPED"
	FetchSuccess      = "SUCCESS"
	FetchFailed       = "FAILED"
)

type invokeIn struct {
	ClassName                   string          `json:"className" jsonschema:"fully qualified"`
	MethodName                  string          `json:"methodName"`
	ConnectionID                string          `json:"connectionId,omitempty" jsonschema:"optional with one connection"`
	ParameterTypes              []string        `json:"parameterTypes,omitempty" jsonschema:"to pick an overload"`
	ArgsJSON                    string          `json:"argsJson,omitempty" maxBytes:"262144" jsonschema:"{name: {type, content}} in order; type simple, enum, json_entity, bean, class or file"`
	Headers                     map[string]any  `json:"headers,omitempty"`
	XxlJobParam                 string          `json:"xxlJobParam,omitempty" jsonschema:"XXL-JOB parameter"`
	TraceMethodDTO              *TraceMethodDTO `json:"traceMethodDTO,omitempty"`
	MethodAroundContent         string          `json:"methodAroundContent,omitempty" maxBytes:"262144" jsonschema:"Java source with onBefore/onAfter/onException/onFinally"`
	MethodAroundName            string          `json:"methodAroundName,omitempty" jsonschema:"a saved script (list_method_around_scripts)"`
	MethodAroundContentIdentity string          `json:"methodAroundContentIdentity,omitempty" jsonschema:"default: its MD5"`
	ClassLoaderIdentity         string          `json:"classLoaderIdentity,omitempty" jsonschema:"default: the connection's"`
	TimeoutMillis               toolkit.Int     `json:"timeoutMillis,omitempty" jsonschema:"default 30000"`
	ResultView                  string          `json:"resultView,omitempty" jsonschema:"default TO_STRING"`
	Common
}

// InvokeOut is the answer of invoke_java_method.
type InvokeOut struct {
	Success           bool     `json:"success"`
	ConnectionID      string   `json:"connectionId"`
	ApplicationName   *string  `json:"applicationName"`
	ClassName         *string  `json:"className"`
	MethodName        *string  `json:"methodName"`
	ParameterTypes    []string `json:"parameterTypes"`
	ResultClassType   *string  `json:"resultClassType"`
	Result            *string  `json:"result"`
	Throwable         *string  `json:"throwable"`
	OffsetPath        *string  `json:"offsetPath"`
	TraceOffsetPath   *string  `json:"traceOffsetPath"`
	DurationMillis    *int64   `json:"durationMillis"`
	ResultJSON        *string  `json:"resultJson"`
	ResultFetchStatus string   `json:"resultFetchStatus"`
	ResultFetchError  *string  `json:"resultFetchError"`
}

func ptr[T any](v T) *T { return &v }

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (t *jvmTools) invoke(ctx context.Context, in invokeIn) (InvokeOut, error) {
	dto, view, timeout, err := t.buildRun(in)
	if err != nil {
		return InvokeOut{}, err
	}
	conn, err := t.resolveConn(ctx, in.ConnectionID, in.Common)
	if err != nil {
		return InvokeOut{}, err
	}
	return t.invokeOn(ctx, conn, dto, view, timeout)
}

// buildRun validates the invocation arguments into a RunDTO.
func (t *jvmTools) buildRun(in invokeIn) (*RunDTO, string, time.Duration, error) {
	if strings.TrimSpace(in.ClassName) == "" || strings.TrimSpace(in.MethodName) == "" {
		return nil, "", 0, toolkit.NewError(toolkit.CodeInvalidArgument, "className and methodName are required", "pass the fully qualified class name and the method name")
	}
	view := strings.ToUpper(strings.TrimSpace(in.ResultView))
	switch view {
	case "":
		view = ViewToString
	case ViewToString, ViewJSON, ViewDebug, ViewNone:
	default:
		return nil, "", 0, toolkit.NewError(toolkit.CodeInvalidArgument, "resultView must be TO_STRING, JSON, DEBUG or NONE, not "+in.ResultView, "")
	}
	args, err := ParseOrderedObject(in.ArgsJSON)
	if err != nil {
		return nil, "", 0, toolkit.NewError(toolkit.CodeInvalidArgument, "argsJson is not a JSON object: "+err.Error(),
			`pass {"name":{"type":"simple","content":"value"}, ...} in declaration order (generate_method_args_template builds it)`)
	}
	dto := &RunDTO{Identity: NewIdentity(), TargetClassName: strings.TrimSpace(in.ClassName), TargetMethodName: strings.TrimSpace(in.MethodName),
		TargetMethodParameterTypes: in.ParameterTypes, TargetMethodContent: *args, XxlJobParam: in.XxlJobParam, TraceMethodDTO: in.TraceMethodDTO}
	if dto.TargetMethodParameterTypes == nil {
		dto.TargetMethodParameterTypes = []string{}
	}
	if _, err := dto.ValidateArgs(); err != nil {
		return nil, "", 0, toolkit.NewError(toolkit.CodeInvalidArgument, "argsJson: "+err.Error(), `each argument is {"type":"simple|enum|json_entity|bean|class|file","content":...}`)
	}
	if len(in.Headers) > 0 {
		dto.Headers = map[string]string{}
		for k, v := range in.Headers {
			if s, ok := v.(string); ok {
				dto.Headers[k] = s
			} else {
				b, _ := json.Marshal(v)
				dto.Headers[k] = string(b)
			}
		}
	}
	if in.ClassLoaderIdentity != "" {
		dto.ClassLoader = &ClassLoaderDTO{Identity: in.ClassLoaderIdentity}
	}
	content := in.MethodAroundContent
	if in.MethodAroundName != "" {
		project, err := t.m.ResolveProject(in.ProjectPath)
		if err != nil {
			return nil, "", 0, err
		}
		script, err := ReadMethodAroundScript(project, in.MethodAroundName)
		if err != nil {
			return nil, "", 0, err
		}
		if content == "" {
			content = script.Content
		}
	}
	if content != "" {
		dto.MethodAroundContent = content
		dto.MethodAroundContentIdentity = in.MethodAroundContentIdentity
		if dto.MethodAroundContentIdentity == "" {
			sum := md5.Sum([]byte(content))
			dto.MethodAroundContentIdentity = hex.EncodeToString(sum[:])
		}
	}
	timeout := 30 * time.Second
	if in.TimeoutMillis != 0 {
		timeout = time.Duration(max(int(in.TimeoutMillis), 1)) * time.Millisecond
	}
	return dto, view, timeout, nil
}

// invokeOn runs dto on conn and fetches the requested view.
func (t *jvmTools) invokeOn(ctx context.Context, conn *Connection, dto *RunDTO, view string, timeout time.Duration) (InvokeOut, error) {
	if dto.ClassLoader == nil && conn.DefaultLoader != nil && conn.External {
		dto.ClassLoader = conn.DefaultLoader
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, _, err := conn.Client.Run(rctx, dto)
	if err != nil {
		switch {
		case errors.Is(err, ErrAgentTimeout):
			return InvokeOut{}, toolkit.NewError(toolkit.CodeTimeout,
				fmt.Sprintf("the target JVM did not answer within %s (connection %s)", timeout, conn.ID),
				"raise timeoutMillis for slow methods; if the agent hangs, check the target").Retry().Wrap(err)
		case errors.Is(err, ErrClosed):
			return InvokeOut{}, toolkit.NewError(toolkit.CodeInvocationFailed, "the connection "+conn.ID+" is closed: "+err.Error(),
				"attach again with attach_local_jvm").WithNext(toolkit.NextReconnect).Wrap(err)
		}
		return InvokeOut{}, toolkit.NewError(toolkit.CodeInvocationFailed, err.Error(), "").Wrap(err)
	}
	out := InvokeOut{ConnectionID: conn.ID, ApplicationName: nonEmpty(res.ApplicationName), ClassName: nonEmpty(res.ClassName),
		MethodName: nonEmpty(res.MethodName), ParameterTypes: res.MethodParameterTypes, ResultClassType: nonEmpty(res.ResultClassType),
		Result: res.PrintResult, Throwable: res.Throwable, OffsetPath: res.OffsetPath, TraceOffsetPath: res.TraceOffsetPath,
		DurationMillis: ptr(res.Duration), ResultFetchStatus: FetchNotRequested}
	if out.ParameterTypes == nil {
		out.ParameterTypes = []string{}
	}
	out.Success = res.Throwable == nil
	if res.Throwable != nil && res.OffsetPath == nil {
		// The method never ran: the class, method, instance or an
		// argument could not be resolved.
		first := strings.SplitN(*res.Throwable, "\n", 2)[0]
		return out, toolkit.NewError(toolkit.CodeInvocationFailed, first,
			"check className, methodName, parameterTypes and argsJson (generate_method_args_template builds it)").WithDetails(out).KeepData()
	}
	switch {
	case view == ViewNone:
		out.ResultFetchStatus = FetchSkipped
	case (view == ViewJSON || view == ViewDebug) && out.Success && res.OffsetPath != nil:
		if conn.HTTP == nil {
			out.ResultFetchStatus = FetchFailed
			out.ResultFetchError = ptr("the connection has no HTTP port")
			break
		}
		fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		text, err := conn.HTTP.ResultView(fctx, *res.OffsetPath, view)
		cancel()
		if err != nil {
			out.ResultFetchStatus = FetchFailed
			out.ResultFetchError = ptr(err.Error())
		} else {
			out.ResultFetchStatus = FetchSuccess
			out.ResultJSON = &text
		}
	}
	if res.Throwable != nil {
		first := strings.SplitN(*res.Throwable, "\n", 2)[0]
		return out, toolkit.NewError(toolkit.CodeInvocationFailed, "the method threw: "+first,
			"the whole stack trace is in data.throwable").KeepData()
	}
	return out, nil
}
