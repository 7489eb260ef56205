package javadap

import "context"

// Modifier is one EventRequest.Set filter.
type Modifier struct {
	Kind     byte
	Count    int32
	Thread   uint64
	Class    uint64
	Pattern  string
	Location Location
	// FieldOnly (with Class) and InstanceOnly.
	Field, Object uint64
	// ExceptionOnly.
	ExceptionClass   uint64
	Caught, Uncaught bool
	// Step.
	StepSize, StepDepth int32
}

// Modifier kinds.
const (
	ModCount           = 1
	ModThreadOnly      = 3
	ModClassOnly       = 4
	ModClassMatch      = 5
	ModClassExclude    = 6
	ModLocationOnly    = 7
	ModExceptionOnly   = 8
	ModStep            = 10
	ModSourceNameMatch = 12
)

// Step sizes and depths.
const (
	StepLine = 1
	StepInto = 0
	StepOver = 1
	StepOut  = 2
)

// SetEvent creates an event request and returns its id.
func (c *Client) SetEvent(ctx context.Context, kind, suspend byte, mods ...Modifier) (int32, error) {
	w := c.writer()
	w.u8(kind)
	w.u8(suspend)
	w.i32(int32(len(mods)))
	for _, m := range mods {
		w.u8(m.Kind)
		switch m.Kind {
		case ModCount:
			w.i32(m.Count)
		case ModThreadOnly:
			w.object(m.Thread)
		case ModClassOnly:
			w.refType(m.Class)
		case ModClassMatch, ModClassExclude, ModSourceNameMatch:
			w.str(m.Pattern)
		case ModLocationOnly:
			w.location(m.Location)
		case modFieldOnly:
			w.refType(m.Class)
			w.field(m.Field)
		case modInstanceOnly:
			w.object(m.Object)
		case ModExceptionOnly:
			w.refType(m.ExceptionClass)
			w.bool(m.Caught)
			w.bool(m.Uncaught)
		case ModStep:
			w.object(m.Thread)
			w.i32(m.StepSize)
			w.i32(m.StepDepth)
		}
	}
	return reply(ctx, c, "EventRequest.Set", csEventRequest, 1, w, (*Reader).i32)
}

// ClearEvent removes an event request.
func (c *Client) ClearEvent(ctx context.Context, kind byte, id int32) error {
	w := c.writer()
	w.u8(kind)
	w.i32(id)
	return c.send(ctx, "EventRequest.Clear", csEventRequest, 2, w)
}

// ClearAllBreakpoints removes every breakpoint request.
func (c *Client) ClearAllBreakpoints(ctx context.Context) error {
	return c.send(ctx, "EventRequest.ClearAllBreakpoints", csEventRequest, 3, nil)
}
