package javadap

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"
)

func (s *Server) setVariable(ctx context.Context, req *godap.SetVariableRequest) (*godap.SetVariableResponse, error) {
	a := &req.Arguments
	r := s.refs.get(a.VariablesReference)
	if r == nil {
		return nil, fmt.Errorf("unknown variablesReference %d", a.VariablesReference)
	}
	var env *evalEnv
	var err error
	if r.kind == refLocals {
		env = &evalEnv{s: s, thread: r.thread, depth: r.depth, loc: r.loc}
	} else if env, err = s.topEnv(ctx, r.thread); err != nil {
		return nil, err
	}
	nv, err := env.evalString(ctx, a.Value)
	if err != nil {
		return nil, err
	}
	if nv.isClass {
		return nil, fmt.Errorf("%s is a class, not a value", nv.name)
	}
	var written Value
	switch r.kind {
	case refLocals:
		ls, err := s.frameLocals(ctx, r.thread, r.depth, r.loc)
		if err != nil {
			return nil, err
		}
		found := false
		for _, l := range ls {
			if l.Name != a.Name {
				continue
			}
			found = true
			if written, err = s.coerce(ctx, r.thread, nv.v, l.Signature); err != nil {
				return nil, err
			}
			fid, err := s.frameID(ctx, r.thread, r.depth)
			if err != nil {
				return nil, err
			}
			if err := s.vm.SetFrameValue(ctx, r.thread, fid, l.Slot, written); err != nil {
				return nil, err
			}
		}
		if !found {
			return nil, fmt.Errorf("no local variable %s here", a.Name)
		}
	case refObject, refStatics:
		rt := r.class
		if r.kind == refObject {
			if _, rt, err = s.vm.ObjectType(ctx, r.obj.Object); err != nil {
				return nil, err
			}
		}
		found := false
		for _, c := range s.classes.classChain(ctx, rt) {
			fs, _ := s.classes.fieldsOf(ctx, c)
			for _, f := range fs {
				if f.Name != a.Name || found || f.IsStatic() != (r.kind == refStatics) {
					continue
				}
				found = true
				if written, err = s.coerce(ctx, r.thread, nv.v, f.Signature); err != nil {
					return nil, err
				}
				if r.kind == refStatics {
					err = s.vm.SetStaticValue(ctx, c, f.ID, written)
				} else {
					err = s.vm.SetFieldValue(ctx, r.obj.Object, f.ID, written)
				}
				if err != nil {
					return nil, err
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("no field %s", a.Name)
		}
	case refArray:
		i, err := strconv.Atoi(strings.Trim(a.Name, "[]"))
		if err != nil || i < 0 || i >= r.length {
			return nil, fmt.Errorf("bad array element %s", a.Name)
		}
		_, rt, err := s.vm.ObjectType(ctx, r.obj.Object)
		if err != nil {
			return nil, err
		}
		sig, _ := s.classes.signature(ctx, rt)
		if written, err = s.coerce(ctx, r.thread, nv.v, strings.TrimPrefix(sig, "[")); err != nil {
			return nil, err
		}
		if err := s.vm.SetArrayValue(ctx, r.obj.Object, i, written); err != nil {
			return nil, err
		}
	default:
		return nil, errors.New("elements of collections and maps cannot be set; call a method with evaluate instead")
	}
	d := s.describe(ctx, r.thread, written, "")
	return &godap.SetVariableResponse{Body: godap.SetVariableResponseBody{Value: d.value, Type: d.typ, VariablesReference: d.ref}}, nil
}
