package debugtools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// OrderedObject is a JSON object that keeps the order of its keys, which
// Go maps do not: method arguments bind by the key order of
// targetMethodContent. Values stay raw JSON. Duplicate keys keep the
// first position and the last value, as JSON parsers commonly do.
//
// The zero value is an empty object. It is not safe for concurrent
// mutation.
type OrderedObject struct {
	keys   []string
	values map[string]json.RawMessage
}

// Keys returns the keys in order.
func (o *OrderedObject) Keys() []string { return append([]string(nil), o.keys...) }

// Len returns the number of keys.
func (o *OrderedObject) Len() int { return len(o.keys) }

// Get returns the raw value of key.
func (o *OrderedObject) Get(key string) (json.RawMessage, bool) {
	v, ok := o.values[key]
	return v, ok
}

// Set adds key at the end, or replaces its value in place.
func (o *OrderedObject) Set(key string, value json.RawMessage) {
	if o.values == nil {
		o.values = map[string]json.RawMessage{}
	}
	if _, ok := o.values[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.values[key] = append(json.RawMessage(nil), value...)
}

// MarshalJSON writes the object with its keys in order.
func (o OrderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		v := o.values[k]
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		var c bytes.Buffer
		if err := json.Compact(&c, v); err != nil {
			return nil, fmt.Errorf("value of %q: %w", k, err)
		}
		b.Write(c.Bytes())
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a JSON object keeping its key order. null is an
// empty object.
func (o *OrderedObject) UnmarshalJSON(data []byte) error {
	o.keys, o.values = nil, nil
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("ordered object: %w", err)
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("ordered object: not a JSON object")
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return fmt.Errorf("ordered object: %w", err)
		}
		key, ok := kt.(string)
		if !ok {
			return errors.New("ordered object: key is not a string")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("ordered object: value of %q: %w", key, err)
		}
		o.Set(key, raw)
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("ordered object: %w", err)
	}
	if dec.More() {
		return errors.New("ordered object: data after the object")
	}
	return nil
}

// ParseOrderedObject parses s ("" or "{}" give an empty object).
func ParseOrderedObject(s string) (*OrderedObject, error) {
	o := &OrderedObject{}
	if len(bytes.TrimSpace([]byte(s))) == 0 {
		return o, nil
	}
	if err := o.UnmarshalJSON([]byte(s)); err != nil {
		return nil, err
	}
	return o, nil
}
