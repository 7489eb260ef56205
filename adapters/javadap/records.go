package javadap

import (
	"context"
	"strings"
)

// Records and enums are shown by what they mean rather than by identity:
// a record as its components, Item[name=a, qty=2] (the form of a record's
// own toString, read from its fields without running code in the
// program), and an enum constant by its name, RED. Their children stay
// the object's fields, so a record's components expand by name.

const (
	recordSig = "Ljava/lang/Record;"
	enumSig   = "Ljava/lang/Enum;"
	// maxSummaryDepth bounds records nested in records in one summary.
	maxSummaryDepth = 2
	// maxSummaryParts and maxSummaryString bound a summary's components
	// and each string component's length.
	maxSummaryParts  = 16
	maxSummaryString = 200
)

// summary returns the display value of a record or an enum constant, and
// false for other objects.
func (s *Server) summary(ctx context.Context, thread uint64, obj uint64, rt uint64, depth int) (string, bool) {
	switch {
	case s.classes.implements(ctx, rt, enumSig):
		for _, c := range s.classes.classChain(ctx, rt) {
			if sig, _ := s.classes.signature(ctx, c); sig == enumSig {
				return s.enumName(ctx, obj, c)
			}
		}
	case s.classes.implements(ctx, rt, recordSig):
		return s.recordSummary(ctx, thread, obj, rt, depth), true
	}
	return "", false
}

// enumName reads java.lang.Enum's name field of an enum constant.
func (s *Server) enumName(ctx context.Context, obj, enumClass uint64) (string, bool) {
	fields, err := s.classes.fieldsOf(ctx, enumClass)
	if err != nil {
		return "", false
	}
	for _, f := range fields {
		if f.Name != "name" || f.IsStatic() {
			continue
		}
		vals, err := s.vm.FieldValues(ctx, obj, []uint64{f.ID})
		if err != nil || len(vals) != 1 || vals[0].Object == 0 {
			return "", false
		}
		name, err := s.vm.StringValue(ctx, vals[0].Object)
		return name, err == nil
	}
	return "", false
}

// recordSummary formats a record's components, the record's instance
// fields in declaration order.
func (s *Server) recordSummary(ctx context.Context, thread, obj, rt uint64, depth int) string {
	sig, _ := s.classes.signature(ctx, rt)
	name := simpleClassName(sig)
	if depth >= maxSummaryDepth {
		return name + "[...]"
	}
	fields, err := s.classes.fieldsOf(ctx, rt)
	if err != nil {
		return name + "[?]"
	}
	var ids []uint64
	var names []string
	for _, f := range fields {
		if !f.IsStatic() {
			ids = append(ids, f.ID)
			names = append(names, f.Name)
		}
	}
	var vals []Value
	if len(ids) > 0 {
		if vals, err = s.vm.FieldValues(ctx, obj, ids); err != nil {
			return name + "[?]"
		}
	}
	parts := make([]string, 0, len(vals))
	for i, v := range vals {
		if i == maxSummaryParts {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, names[i]+"="+s.componentText(ctx, thread, v, depth+1))
	}
	return name + "[" + strings.Join(parts, ", ") + "]"
}

// componentText formats one component as a record's toString would:
// strings without quotes, nested records and enums by their summaries.
func (s *Server) componentText(ctx context.Context, thread uint64, v Value, depth int) string {
	if v.IsObject() && v.Object != 0 {
		if _, rt, err := s.vm.ObjectType(ctx, v.Object); err == nil {
			if sig, _ := s.classes.signature(ctx, rt); sig == "Ljava/lang/String;" {
				str, _ := s.vm.StringValue(ctx, v.Object)
				if r := []rune(str); len(r) > maxSummaryString {
					str = string(r[:maxSummaryString]) + "..."
				}
				return str
			}
			if text, ok := s.summary(ctx, thread, v.Object, rt, depth); ok {
				return text
			}
		}
	}
	return s.shortValue(ctx, thread, v)
}
