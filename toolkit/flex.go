package toolkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Int is an integer tool argument that also accepts a numeric string
// ("1234"), since clients and models send both.
type Int int

// UnmarshalJSON implements json.Unmarshaler.
func (n *Int) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			*n = 0
			return nil
		}
		v, err := strconv.Atoi(s)
		if err != nil {
			return &json.UnmarshalTypeError{Value: DescribeJSON(b), Type: intType}
		}
		*n = Int(v)
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f != float64(int(f)) || f > math.MaxInt64 || f < math.MinInt64 {
		return &json.UnmarshalTypeError{Value: DescribeJSON(b), Type: intType}
	}
	*n = Int(int(f))
	return nil
}

// Bool is a boolean tool argument that also accepts "true"/"false".
type Bool struct {
	Set   bool
	Value bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (v *Bool) UnmarshalJSON(b []byte) error {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	switch strings.ToLower(s) {
	case "null", "":
		return nil
	case "true", "1", "yes":
		*v = Bool{Set: true, Value: true}
	case "false", "0", "no":
		*v = Bool{Set: true, Value: false}
	default:
		return &json.UnmarshalTypeError{Value: DescribeJSON(b), Type: boolType}
	}
	return nil
}

// MarshalJSON implements json.Marshaler.
func (v Bool) MarshalJSON() ([]byte, error) {
	if !v.Set {
		return []byte("null"), nil
	}
	return []byte(fmt.Sprint(v.Value)), nil
}

// Ptr returns nil when unset.
func (v Bool) Ptr() *bool {
	if !v.Set {
		return nil
	}
	b := v.Value
	return &b
}

// Or returns the value or def when unset.
func (v Bool) Or(def bool) bool {
	if !v.Set {
		return def
	}
	return v.Value
}

var (
	intType  = reflect.TypeOf(0)
	boolType = reflect.TypeOf(false)
)
