package javadap

import "fmt"

// JDWP event kinds.
const (
	EventSingleStep       byte = 1
	EventBreakpoint       byte = 2
	EventFramePop         byte = 3
	EventException        byte = 4
	EventUserDefined      byte = 5
	EventThreadStart      byte = 6
	EventThreadDeath      byte = 7
	EventClassPrepare     byte = 8
	EventClassUnload      byte = 9
	EventClassLoad        byte = 10
	EventFieldAccess      byte = 20
	EventFieldModify      byte = 21
	EventExceptionCatch   byte = 30
	EventMethodEntry      byte = 40
	EventMethodExit       byte = 41
	EventMethodExitValue  byte = 42
	EventMonitorContended byte = 43
	EventMonitorEntered   byte = 44
	EventMonitorWait      byte = 45
	EventMonitorWaited    byte = 46
	EventVMStart          byte = 90
	EventVMDeath          byte = 99
	EventVMDisconnected   byte = 100 // never sent by the VM; the client's own
)

// Suspend policies.
const (
	SuspendNone        byte = 0
	SuspendEventThread byte = 1
	SuspendAll         byte = 2
)

// Event is one event of a composite event packet. Fields that do not apply
// to Kind are zero.
type Event struct {
	Kind      byte
	RequestID int32
	Thread    uint64
	Location  Location

	// Exception events.
	Exception     Value
	CatchLocation Location // Class 0: uncaught

	// Class prepare and unload.
	RefTypeTag byte
	RefType    uint64
	Signature  string
	Status     int32

	// Method exit with value, field modification (the value to be).
	Value Value
	// Field access and modification: the field and its object (null for
	// a static field).
	Field  uint64
	Object Value
}

// EventSet is one composite event packet.
type EventSet struct {
	SuspendPolicy byte
	Events        []Event
}

// decodeEventSet decodes the data of an Event.Composite command.
func decodeEventSet(b []byte, s IDSizes) (*EventSet, error) {
	r := newReader(b, s)
	set := &EventSet{SuspendPolicy: r.u8()}
	n := r.count(5)
	for i := 0; i < n && r.err == nil; i++ {
		e := Event{Kind: r.u8(), RequestID: r.i32()}
		switch e.Kind {
		case EventVMStart, EventThreadStart, EventThreadDeath:
			e.Thread = r.object()
		case EventSingleStep, EventBreakpoint, EventMethodEntry, EventMethodExit, EventFramePop:
			e.Thread = r.object()
			e.Location = r.location()
		case EventMethodExitValue:
			e.Thread = r.object()
			e.Location = r.location()
			e.Value = r.value()
		case EventException:
			e.Thread = r.object()
			e.Location = r.location()
			e.Exception = r.value()
			e.CatchLocation = r.location()
		case EventClassPrepare:
			e.Thread = r.object()
			e.RefTypeTag = r.u8()
			e.RefType = r.refType()
			e.Signature = r.str()
			e.Status = r.i32()
		case EventClassUnload:
			e.Signature = r.str()
		case EventFieldAccess, EventFieldModify:
			e.Thread = r.object()
			e.Location = r.location()
			e.RefTypeTag = r.u8()
			e.RefType = r.refType()
			e.Field = r.field()
			e.Object = r.value() // the object (or null for statics)
			e.Value = e.Object
			if e.Kind == EventFieldModify {
				e.Value = r.value()
			}
		case EventMonitorContended, EventMonitorEntered:
			e.Thread = r.object()
			_ = r.value()
			e.Location = r.location()
		case EventMonitorWait:
			e.Thread = r.object()
			_ = r.value()
			e.Location = r.location()
			_ = r.i64()
		case EventMonitorWaited:
			e.Thread = r.object()
			_ = r.value()
			e.Location = r.location()
			_ = r.bool()
		case EventVMDeath:
		default:
			return nil, fmt.Errorf("%w: unknown event kind %d", ErrMalformedPacket, e.Kind)
		}
		if r.err == nil {
			set.Events = append(set.Events, e)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return set, nil
}
