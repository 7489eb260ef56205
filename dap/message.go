package dap

import (
	"encoding/json"
	"errors"
	"fmt"

	godap "github.com/google/go-dap"
)

// Message is one DAP protocol message as it travels on the wire. Requests,
// responses and events share the envelope; Arguments and Body stay raw JSON
// so that messages the go-dap schema does not know (custom commands, new
// events) pass through untouched. Use Typed to get the go-dap value.
type Message struct {
	Seq        int             `json:"seq"`
	Type       string          `json:"type"`
	Command    string          `json:"command,omitempty"`
	Event      string          `json:"event,omitempty"`
	RequestSeq int             `json:"request_seq,omitempty"`
	Success    *bool           `json:"success,omitempty"`
	Message    string          `json:"message,omitempty"`
	Arguments  json.RawMessage `json:"arguments,omitempty"`
	Body       json.RawMessage `json:"body,omitempty"`

	raw []byte
}

// ErrMalformed reports a frame whose body is not a DAP message.
var ErrMalformed = errors.New("dap: malformed message")

// Decode parses a frame body. Unknown commands and events are not errors.
func Decode(body []byte) (*Message, error) {
	var m Message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	switch m.Type {
	case "request":
		if m.Command == "" {
			return nil, fmt.Errorf("%w: request without command", ErrMalformed)
		}
	case "response":
		if m.Success == nil {
			return nil, fmt.Errorf("%w: response without success", ErrMalformed)
		}
	case "event":
		if m.Event == "" {
			return nil, fmt.Errorf("%w: event without name", ErrMalformed)
		}
	default:
		return nil, fmt.Errorf("%w: type %q", ErrMalformed, m.Type)
	}
	m.raw = body
	return &m, nil
}

// Raw returns the exact bytes the message was decoded from (nil for
// messages built locally).
func (m *Message) Raw() json.RawMessage { return m.raw }

// OK reports whether a response succeeded.
func (m *Message) OK() bool { return m.Success != nil && *m.Success }

// Typed decodes the message into the matching go-dap type. Messages go-dap
// does not know return an error; callers keep using the raw envelope.
func (m *Message) Typed() (godap.Message, error) {
	b := m.raw
	if b == nil {
		var err error
		if b, err = json.Marshal(m); err != nil {
			return nil, err
		}
	}
	return godap.DecodeProtocolMessage(b)
}

// DecodeBody unmarshals the body (or, for requests, the arguments) into v.
func (m *Message) DecodeBody(v any) error {
	src := m.Body
	if m.Type == "request" {
		src = m.Arguments
	}
	if len(src) == 0 || string(src) == "null" {
		return nil
	}
	return json.Unmarshal(src, v)
}

// ErrorText returns the best human-readable message of a failed response:
// the formatted ErrorResponse body when present, else the short message.
func (m *Message) ErrorText() string {
	var body godap.ErrorResponseBody
	if err := json.Unmarshal(m.Body, &body); err == nil && body.Error != nil && body.Error.Format != "" {
		return formatVariables(body.Error.Format, body.Error.Variables)
	}
	if m.Message != "" {
		return m.Message
	}
	return "request failed"
}

func formatVariables(format string, vars map[string]string) string {
	out := make([]byte, 0, len(format))
	for i := 0; i < len(format); i++ {
		if format[i] == '{' {
			if j := indexByte(format[i:], '}'); j > 0 {
				if v, ok := vars[format[i+1:i+j]]; ok {
					out = append(out, v...)
					i += j
					continue
				}
			}
		}
		out = append(out, format[i])
	}
	return string(out)
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func boolPtr(b bool) *bool { return &b }

func newRequest(command string, args any) (*Message, error) {
	m := &Message{Type: "request", Command: command}
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("dap: encode %s arguments: %w", command, err)
		}
		m.Arguments = b
	}
	return m, nil
}

// errorBody is the body of a failed response whose text is shown to the
// user.
func errorBody(text string) map[string]any {
	return map[string]any{"error": map[string]any{"id": 1, "format": text, "showUser": true}}
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return b
}
