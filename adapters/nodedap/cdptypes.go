package nodedap

import "encoding/json"

// The CDP types the adapter reads. Only the fields it uses are declared.

type remoteObject struct {
	Type                string          `json:"type"`
	Subtype             string          `json:"subtype,omitempty"`
	ClassName           string          `json:"className,omitempty"`
	Value               json.RawMessage `json:"value,omitempty"`
	UnserializableValue string          `json:"unserializableValue,omitempty"`
	Description         string          `json:"description,omitempty"`
	ObjectID            string          `json:"objectId,omitempty"`
	Preview             *objectPreview  `json:"preview,omitempty"`
}

type objectPreview struct {
	Type        string            `json:"type"`
	Subtype     string            `json:"subtype,omitempty"`
	Description string            `json:"description,omitempty"`
	Overflow    bool              `json:"overflow"`
	Properties  []propertyPreview `json:"properties"`
	Entries     []entryPreview    `json:"entries,omitempty"`
}

type propertyPreview struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Value   string `json:"value,omitempty"`
	Subtype string `json:"subtype,omitempty"`
}

type entryPreview struct {
	Key   *objectPreview `json:"key,omitempty"`
	Value objectPreview  `json:"value"`
}

type propertyDescriptor struct {
	Name  string        `json:"name"`
	Value *remoteObject `json:"value,omitempty"`
	Get   *remoteObject `json:"get,omitempty"`
	Set   *remoteObject `json:"set,omitempty"`
}

type propertiesResult struct {
	Result             []propertyDescriptor `json:"result"`
	InternalProperties []propertyDescriptor `json:"internalProperties"`
	PrivateProperties  []propertyDescriptor `json:"privateProperties"`
	ExceptionDetails   *exceptionDetails    `json:"exceptionDetails"`
}

type location struct {
	ScriptID     string `json:"scriptId"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

type scopeInfo struct {
	Type   string       `json:"type"`
	Object remoteObject `json:"object"`
	Name   string       `json:"name,omitempty"`
}

type callFrame struct {
	CallFrameID  string       `json:"callFrameId"`
	FunctionName string       `json:"functionName"`
	Location     location     `json:"location"`
	URL          string       `json:"url"`
	ScopeChain   []scopeInfo  `json:"scopeChain"`
	This         remoteObject `json:"this"`
}

type pausedEvent struct {
	CallFrames     []callFrame     `json:"callFrames"`
	Reason         string          `json:"reason"`
	Data           json.RawMessage `json:"data"`
	HitBreakpoints []string        `json:"hitBreakpoints"`
}

type exceptionDetails struct {
	Text         string        `json:"text"`
	LineNumber   int           `json:"lineNumber"`
	ColumnNumber int           `json:"columnNumber"`
	URL          string        `json:"url"`
	Exception    *remoteObject `json:"exception"`
}

// message is the best one-line text of an exception.
func (e *exceptionDetails) message() string {
	if e == nil {
		return ""
	}
	if e.Exception != nil {
		if e.Exception.Description != "" {
			return e.Exception.Description
		}
		return formatValue(e.Exception)
	}
	return e.Text
}

type scriptParsed struct {
	ScriptID     string `json:"scriptId"`
	URL          string `json:"url"`
	SourceMapURL string `json:"sourceMapURL"`
}

type evalResult struct {
	Result           remoteObject      `json:"result"`
	ExceptionDetails *exceptionDetails `json:"exceptionDetails"`
}

type consoleAPICalled struct {
	Type string         `json:"type"`
	Args []remoteObject `json:"args"`
}

type setBreakpointResult struct {
	BreakpointID string     `json:"breakpointId"`
	Locations    []location `json:"locations"`
}

// callArgument turns a value into a CDP CallArgument.
func callArgument(o *remoteObject) map[string]any {
	switch {
	case o.ObjectID != "":
		return map[string]any{"objectId": o.ObjectID}
	case o.UnserializableValue != "":
		return map[string]any{"unserializableValue": o.UnserializableValue}
	case o.Type == "undefined":
		return map[string]any{}
	default:
		return map[string]any{"value": o.Value}
	}
}
