package debugtools

import (
	"encoding/json"
	"fmt"
)

// ClassLoaderDTO names a class loader in the target.
type ClassLoaderDTO struct {
	Name     string `json:"name"`
	Identity string `json:"identity"`
}

// RunContentDTO is one method argument: its conversion type (simple,
// enum, json_entity, bean, class, file, ...) and its content.
type RunContentDTO struct {
	Type    string          `json:"type"`
	Content json.RawMessage `json:"content,omitempty"`
}

// TraceMethodDTO configures tracing of a run.
type TraceMethodDTO struct {
	TraceMethod                  bool   `json:"traceMethod,omitempty"`
	TraceMaxDepth                int    `json:"traceMaxDepth,omitempty"`
	TraceMyBatis                 bool   `json:"traceMyBatis,omitempty"`
	TraceSQL                     bool   `json:"traceSQL,omitempty"`
	TraceSkipStartGetSetCheckBox bool   `json:"traceSkipStartGetSetCheckBox,omitempty"`
	TraceBusinessPackageRegexp   string `json:"traceBusinessPackageRegexp,omitempty"`
	TraceIgnorePackageRegexp     string `json:"traceIgnorePackageRegexp,omitempty"`
}

// RunDTO is the body of a run request (command 3).
// TargetMethodContent maps argument names to RunContentDTO values in
// declaration order.
type RunDTO struct {
	Identity                    string            `json:"identity"`
	Headers                     map[string]string `json:"headers,omitempty"`
	ClassLoader                 *ClassLoaderDTO   `json:"classLoader,omitempty"`
	TargetClassName             string            `json:"targetClassName"`
	TargetMethodName            string            `json:"targetMethodName"`
	TargetMethodParameterTypes  []string          `json:"targetMethodParameterTypes"`
	TargetMethodContent         OrderedObject     `json:"targetMethodContent"`
	XxlJobParam                 string            `json:"xxlJobParam,omitempty"`
	TraceMethodDTO              *TraceMethodDTO   `json:"traceMethodDTO,omitempty"`
	MethodAroundContent         string            `json:"methodAroundContent,omitempty"`
	MethodAroundContentIdentity string            `json:"methodAroundContentIdentity,omitempty"`
}

// RunResult is the body of a run response (command 4).
type RunResult struct {
	Identity             string   `json:"identity"`
	ApplicationName      string   `json:"applicationName"`
	ClassLoaderIdentity  string   `json:"classLoaderIdentity"`
	ClassName            string   `json:"className"`
	MethodName           string   `json:"methodName"`
	MethodParameterTypes []string `json:"methodParameterTypes"`
	ResultClassType      string   `json:"resultClassType"`
	PrintResult          *string  `json:"printResult"`
	Throwable            *string  `json:"throwable"`
	OffsetPath           *string  `json:"offsetPath"`
	TraceOffsetPath      *string  `json:"traceOffsetPath"`
	Duration             int64    `json:"duration"`
}

// ClearResultDTO is the body of a clear-result request (command 7). An
// empty OffsetPath clears every stored result.
type ClearResultDTO struct {
	OffsetPath      string `json:"offsetPath,omitempty"`
	TraceOffsetPath string `json:"traceOffsetPath,omitempty"`
}

// HeartbeatDTO is the body of heartbeats (commands 1 and 2).
type HeartbeatDTO struct {
	ApplicationName string `json:"applicationName,omitempty"`
}

// ValidateArgs checks that every value of TargetMethodContent is a
// RunContentDTO with a type, and returns them in order.
func (d *RunDTO) ValidateArgs() ([]RunContentDTO, error) {
	out := make([]RunContentDTO, 0, d.TargetMethodContent.Len())
	for _, k := range d.TargetMethodContent.Keys() {
		raw, _ := d.TargetMethodContent.Get(k)
		var c RunContentDTO
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("argument %q: want {\"type\":...,\"content\":...}: %w", k, err)
		}
		if c.Type == "" {
			return nil, fmt.Errorf("argument %q: type is missing", k)
		}
		out = append(out, c)
	}
	return out, nil
}
