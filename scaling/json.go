package scaling

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/fp8lab/fp8lab/fp8"
)

// JSON has no numbers for NaN and ±Inf, which metrics hold by design (the
// SQNR of an exact round trip is +Inf, that of an all-zero input NaN).
// The result types marshal through marshalNumbers, which writes every
// float64 field as an fp8.Number: a number, or the string "NaN", "+Inf" or
// "-Inf". A float64 field added later is covered without further code.

// numberTypes caches, per struct type, the type marshalNumbers copies it
// into.
var numberTypes sync.Map // reflect.Type -> reflect.Type

// marshalNumbers marshals the struct v as encoding/json would, except that
// its float64 fields are written as fp8.Number. v must be a struct with no
// embedded fields; the copy has none of v's methods, so a MarshalJSON
// method may call marshalNumbers on its own receiver.
func marshalNumbers(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	t, err := numberType(rv.Type())
	if err != nil {
		return nil, err
	}
	out := reflect.New(t).Elem()
	j := 0
	for i := range rv.NumField() {
		if !rv.Type().Field(i).IsExported() {
			continue
		}
		if f := rv.Field(i); f.Type() == float64Type {
			out.Field(j).SetFloat(f.Float())
		} else {
			out.Field(j).Set(f)
		}
		j++
	}
	return json.Marshal(out.Interface())
}

var (
	float64Type = reflect.TypeFor[float64]()
	numberTyp   = reflect.TypeFor[fp8.Number]()
)

// numberType returns the struct type with the exported fields of t, its
// float64 fields turned into fp8.Number, tags kept.
func numberType(t reflect.Type) (reflect.Type, error) {
	if nt, ok := numberTypes.Load(t); ok {
		return nt.(reflect.Type), nil
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("scaling: marshal %v: not a struct", t)
	}
	var fields []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return nil, fmt.Errorf("scaling: marshal %v: embedded field %s", t, f.Name)
		}
		if !f.IsExported() {
			continue
		}
		if f.Type == float64Type {
			f.Type = numberTyp
		}
		f.Index, f.Offset = nil, 0
		fields = append(fields, f)
	}
	nt, _ := numberTypes.LoadOrStore(t, reflect.StructOf(fields))
	return nt.(reflect.Type), nil
}
