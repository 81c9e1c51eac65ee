// Package strictjson decodes the JSON documents fp8lab reads from files
// (training recipes, comparison records) strictly, where encoding/json is
// lenient: the document is exactly one value, that value is not null (which
// encoding/json decodes into a struct as "nothing set", so that a file
// holding null would be an fp32 recipe), no object names a key twice (where
// encoding/json keeps the last one silently), and no key is unknown to the
// type decoded into.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Decode decodes the one JSON value in data into v by the rules of the
// package. Errors say what is wrong and where (the byte offset), without
// quoting the document beyond a key's name.
func Decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return fmt.Errorf("not JSON at byte %d: %w", se.Offset, err)
		case errors.Is(err, io.EOF):
			return errors.New("no JSON value")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return errors.New("the JSON value is cut short")
		}
		return err
	}
	if end := dec.InputOffset(); len(bytes.TrimLeft(data[end:], " \t\r\n")) > 0 {
		return fmt.Errorf("data after the JSON value (byte %d)", end)
	}
	if string(raw) == "null" {
		return errors.New("the value is null")
	}
	if err := duplicateKeys(raw); err != nil {
		return err
	}
	vdec := json.NewDecoder(bytes.NewReader(raw))
	vdec.DisallowUnknownFields()
	return vdec.Decode(v)
}

// duplicateKeys reports the first object that names a key twice. data is
// one valid JSON value, so only strings, braces, brackets, colons and commas need
// telling apart.
func duplicateKeys(data []byte) error {
	type frame struct {
		object bool
		keys   map[string]bool
	}
	var stack []frame
	expectKey := false // the next string in the current object is a key
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '{':
			stack = append(stack, frame{object: true})
			expectKey = true
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1].object
		case '"':
			start := i
			raw := false
			for i++; data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
					raw = true
				}
			}
			if !expectKey {
				continue
			}
			expectKey = false
			key := string(data[start+1 : i])
			if raw {
				var s string
				if err := json.Unmarshal(data[start:i+1], &s); err != nil {
					return err
				}
				key = s
			}
			top := &stack[len(stack)-1]
			if top.keys == nil {
				top.keys = map[string]bool{}
			}
			if top.keys[key] {
				return fmt.Errorf("key %q appears twice in one object (byte %d)", key, start)
			}
			top.keys[key] = true
		}
	}
	return nil
}
