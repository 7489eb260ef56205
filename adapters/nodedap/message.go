package nodedap

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Message is one Chrome DevTools Protocol message as it travels over the
// inspector's WebSocket. A command carries ID, Method and Params; its
// response carries the same ID and either Result or Error; an event carries
// Method and Params and no ID.
type Message struct {
	ID        int64           `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *CDPError       `json:"error,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
}

// CDPError is the error member of a failed CDP response.
type CDPError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *CDPError) Error() string {
	if len(e.Data) > 0 && string(e.Data) != "null" {
		var s string
		if json.Unmarshal(e.Data, &s) == nil && s != "" {
			return fmt.Sprintf("cdp error %d: %s (%s)", e.Code, e.Message, s)
		}
	}
	return fmt.Sprintf("cdp error %d: %s", e.Code, e.Message)
}

// ErrMalformed reports bytes that are not a CDP message.
var ErrMalformed = errors.New("cdp: malformed message")

// IsEvent reports whether m is an event.
func (m *Message) IsEvent() bool { return m.ID == 0 && m.Method != "" }

// IsResponse reports whether m answers a command.
func (m *Message) IsResponse() bool { return m.ID != 0 && m.Method == "" }

// DecodeMessage parses one WebSocket text frame. It accepts responses and
// events (what a client receives) and commands (what a server receives), and
// rejects everything else with an error wrapping ErrMalformed.
func DecodeMessage(b []byte) (*Message, error) {
	var m Message
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	switch {
	case m.ID < 0:
		return nil, fmt.Errorf("%w: negative id %d", ErrMalformed, m.ID)
	case m.ID == 0 && m.Method == "":
		return nil, fmt.Errorf("%w: neither id nor method", ErrMalformed)
	case m.IsResponse() && m.Error == nil && len(m.Result) == 0:
		return nil, fmt.Errorf("%w: response %d without result or error", ErrMalformed, m.ID)
	case m.Error != nil && m.Method != "":
		return nil, fmt.Errorf("%w: %s carries an error", ErrMalformed, m.Method)
	}
	return &m, nil
}
