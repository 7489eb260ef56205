package javadap

import "context"

// ObjectType returns the runtime type of an object.
func (c *Client) ObjectType(ctx context.Context, obj uint64) (tag byte, refType uint64, err error) {
	r, err := c.call(ctx, "ObjectReference.ReferenceType", csObject, 1, c.objectArg(obj))
	if err != nil {
		return 0, 0, err
	}
	tag = r.u8()
	refType = r.refType()
	return tag, refType, r.err
}

// FieldValues reads instance fields of an object.
func (c *Client) FieldValues(ctx context.Context, obj uint64, fields []uint64) ([]Value, error) {
	w := c.writer()
	w.object(obj)
	w.fields(fields)
	return replyList(ctx, c, "ObjectReference.GetValues", csObject, 2, w, (*Reader).value)
}

// SetFieldValue writes an instance field (untagged value of the field's type).
func (c *Client) SetFieldValue(ctx context.Context, obj, field uint64, v Value) error {
	w := c.writer()
	w.object(obj)
	w.i32(1)
	w.field(field)
	w.untagged(v)
	return c.send(ctx, "ObjectReference.SetValues", csObject, 3, w)
}

// InvokeMethod runs an instance method on a suspended thread. A thrown
// exception is returned as exc (non-zero), not as an error.
func (c *Client) InvokeMethod(ctx context.Context, obj, thread, class, method uint64, args []Value) (ret Value, exc uint64, err error) {
	w := c.writer()
	w.object(obj)
	w.object(thread)
	w.refType(class)
	w.method(method)
	return c.invoke(ctx, "ObjectReference.InvokeMethod", csObject, 6, thread, w, args)
}

// StringValue reads a java.lang.String.
func (c *Client) StringValue(ctx context.Context, str uint64) (string, error) {
	return reply(ctx, c, "StringReference.Value", csString, 1, c.objectArg(str), (*Reader).str)
}

// ThreadName returns a thread's name.
func (c *Client) ThreadName(ctx context.Context, thread uint64) (string, error) {
	return reply(ctx, c, "ThreadReference.Name", csThread, 1, c.objectArg(thread), (*Reader).str)
}

// SuspendThread suspends one thread.
func (c *Client) SuspendThread(ctx context.Context, thread uint64) error {
	return c.send(ctx, "ThreadReference.Suspend", csThread, 2, c.objectArg(thread))
}

// ResumeThread resumes one thread.
func (c *Client) ResumeThread(ctx context.Context, thread uint64) error {
	return c.send(ctx, "ThreadReference.Resume", csThread, 3, c.objectArg(thread))
}

// ThreadStatus returns a thread's status and suspend status.
func (c *Client) ThreadStatus(ctx context.Context, thread uint64) (status, suspend int32, err error) {
	r, err := c.call(ctx, "ThreadReference.Status", csThread, 4, c.objectArg(thread))
	if err != nil {
		return 0, 0, err
	}
	status, suspend = r.i32(), r.i32()
	return status, suspend, r.err
}

// Frame is one stack frame of a suspended thread.
type Frame struct {
	ID       uint64
	Location Location
}

// Frames lists frames of a suspended thread; length -1 means all.
func (c *Client) Frames(ctx context.Context, thread uint64, start, length int) ([]Frame, error) {
	w := c.writer()
	w.object(thread)
	w.i32(int32(start))
	w.i32(int32(length))
	return replyList(ctx, c, "ThreadReference.Frames", csThread, 6, w, func(r *Reader) Frame { return Frame{ID: r.frame(), Location: r.location()} })
}

// FrameCount counts the frames of a suspended thread.
func (c *Client) FrameCount(ctx context.Context, thread uint64) (int, error) {
	return reply(ctx, c, "ThreadReference.FrameCount", csThread, 7, c.objectArg(thread), (*Reader).int)
}

// ArrayLength returns an array's length.
func (c *Client) ArrayLength(ctx context.Context, arr uint64) (int, error) {
	return reply(ctx, c, "ArrayReference.Length", csArray, 1, c.objectArg(arr), (*Reader).int)
}

// ArrayValues reads a slice of an array.
func (c *Client) ArrayValues(ctx context.Context, arr uint64, first, length int) ([]Value, error) {
	w := c.writer()
	w.object(arr)
	w.i32(int32(first))
	w.i32(int32(length))
	r, err := c.call(ctx, "ArrayReference.GetValues", csArray, 2, w)
	if err != nil {
		return nil, err
	}
	tag := r.u8()
	n := r.count(1)
	out := make([]Value, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		if isPrimitiveTag(tag) {
			out = append(out, r.untagged(tag))
		} else {
			out = append(out, r.value())
		}
	}
	return out, r.err
}

// SlotRequest names a local variable slot and its signature's first byte.
type SlotRequest struct {
	Slot int32
	Tag  byte
}

// FrameValues reads locals of a frame.
func (c *Client) FrameValues(ctx context.Context, thread, frame uint64, slots []SlotRequest) ([]Value, error) {
	w := c.frameArg(thread, frame)
	w.i32(int32(len(slots)))
	for _, s := range slots {
		w.i32(s.Slot)
		w.u8(s.Tag)
	}
	return replyList(ctx, c, "StackFrame.GetValues", csStackFrame, 1, w, (*Reader).value)
}

// SetFrameValue writes one local of a frame.
func (c *Client) SetFrameValue(ctx context.Context, thread, frame uint64, slot int32, v Value) error {
	w := c.frameArg(thread, frame)
	w.i32(1)
	w.i32(slot)
	w.value(v)
	return c.send(ctx, "StackFrame.SetValues", csStackFrame, 2, w)
}

// ThisObject returns the frame's this (null in static methods).
func (c *Client) ThisObject(ctx context.Context, thread, frame uint64) (Value, error) {
	w := c.frameArg(thread, frame)
	return reply(ctx, c, "StackFrame.ThisObject", csStackFrame, 3, w, (*Reader).value)
}

// SetArrayValue writes one array element.
func (c *Client) SetArrayValue(ctx context.Context, arr uint64, index int, v Value) error {
	w := c.writer()
	w.object(arr)
	w.i32(int32(index))
	w.i32(1)
	w.untagged(v)
	return c.send(ctx, "ArrayReference.SetValues", csArray, 3, w)
}

// DisableCollection keeps an object alive until EnableCollection.
func (c *Client) DisableCollection(ctx context.Context, obj uint64) error {
	return c.send(ctx, "ObjectReference.DisableCollection", csObject, 7, c.objectArg(obj))
}

// EnableCollection undoes DisableCollection.
func (c *Client) EnableCollection(ctx context.Context, obj uint64) error {
	return c.send(ctx, "ObjectReference.EnableCollection", csObject, 8, c.objectArg(obj))
}
