// Package apitest is a test helper: it calls a package's exported API with
// nil, zero, one-element and out-of-range arguments, as a test that the
// API returns errors, never panics, on bad input (fp8lab's rule). Each
// package's API test names its receiver types and functions once;
// Check calls every exported method of each type on a nil pointer and on
// a zero value, every function, and fails the test on a panic, on a call
// that does not return, or on an exported function or method of the
// package that the test does not name (so that a new one is not left
// out).
package apitest

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// API is what a package's test hands to Check.
type API struct {
	// Types are values of the package's exported types: a typed nil
	// pointer (*T)(nil) for a type whose methods have pointer receivers,
	// a zero value T{} for one with value receivers only.
	Types []any
	// Funcs are the package's exported functions (generic ones
	// instantiated).
	Funcs []any
	// Skip names functions ("Name") and methods ("Type.Name") not called,
	// each with the reason (one that blocks by design, one that starts a
	// build).
	Skip map[string]string
}

// requestType is *http.Request: a handler is always given one.
var requestType = reflect.TypeFor[*http.Request]()

// module is the import path of fp8lab's module: its types are the ones
// whose zero values the arguments hold.
const module = "github.com/fp8lab/fp8lab"

// callTimeout bounds one call: a call that has not returned by then is
// reported as blocking.
var callTimeout = 10 * time.Second

// The argument sets every function and method is called with.
var passes = []struct {
	name string
	n    int // slice length; also the value of every integer
}{
	{"zero arguments", 0},
	{"one-element arguments", 1},
	{"out-of-range arguments", -1},
}

// Check calls every method of api.Types (on nil and zero receivers) and
// every function of api.Funcs with each set of arguments, and checks that
// together with api.Skip they cover the exported API declared in the
// package in the test's folder.
func Check(t testing.TB, api API) {
	t.Helper()
	covered := map[string]bool{}
	for _, v := range api.Types {
		typ := reflect.TypeOf(v)
		base := typ
		if typ.Kind() == reflect.Pointer {
			base = typ.Elem()
		}
		for i := 0; i < typ.NumMethod(); i++ {
			m := typ.Method(i)
			name := base.Name() + "." + m.Name
			covered[name] = true
			if _, skip := api.Skip[name]; skip {
				continue
			}
			for _, recv := range receivers(typ, m.Name) {
				for _, p := range passes {
					args := append([]reflect.Value{recv.v}, arguments(m.Type, 1, p.n)...)
					call(t, fmt.Sprintf("%s on a %s receiver with %s", name, recv.what, p.name), m.Func, args)
				}
			}
		}
	}
	for _, f := range api.Funcs {
		fv := reflect.ValueOf(f)
		require(t, fv.Kind() == reflect.Func, "Funcs holds a %T, not a function", f)
		name := funcName(fv)
		covered[name] = true
		if _, skip := api.Skip[name]; skip {
			continue
		}
		for _, p := range passes {
			call(t, fmt.Sprintf("%s with %s", name, p.name), fv, arguments(fv.Type(), 0, p.n))
		}
	}
	for name := range api.Skip {
		covered[name] = true
	}
	var missing []string
	for _, name := range declared(t) {
		if !covered[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the API test does not call %s: add them to Types or Funcs (or to Skip, with the reason)", strings.Join(missing, ", "))
	}
}

// receiver is one receiver a method is called on.
type receiver struct {
	what string
	v    reflect.Value
}

// receivers are the receivers of method name of typ: a nil pointer (for a
// method with a pointer receiver: a value method on a nil pointer panics
// in Go itself) and a fresh zero value.
func receivers(typ reflect.Type, name string) []receiver {
	if typ.Kind() != reflect.Pointer {
		return []receiver{{"zero", reflect.Zero(typ)}}
	}
	out := []receiver{{"zero", reflect.New(typ.Elem())}}
	if _, valueMethod := typ.Elem().MethodByName(name); !valueMethod {
		out = append(out, receiver{"nil", reflect.Zero(typ)})
	}
	return out
}

// arguments are the arguments of a function of type ft from index first
// on, for the pass of n (see argument).
func arguments(ft reflect.Type, first, n int) []reflect.Value {
	var args []reflect.Value
	for j := first; j < ft.NumIn(); j++ {
		args = append(args, argument(ft.In(j), n))
	}
	return args
}

// standIns are the values given for an interface they implement: the
// context, response writer, reader and writer a caller always has (a nil
// one is the caller's bug, as for the standard library).
var standIns = []func() any{
	func() any { return context.Background() },
	func() any { return httptest.NewRecorder() },
	func() any { return bytes.NewReader(nil) },
	func() any { return new(bytes.Buffer) },
}

// argument is one argument of type in for the pass of n: integers and
// floats n (unsigned ones 0 for n < 0), slices of n elements (none for
// n < 1), pointers to zero values of the module's types (nil for n == 0
// and for other modules' types), maps of one zero entry (nil for n == 0,
// empty for n < 0), functions that do nothing and return zero values, a stand-in
// for an interface one implements, and zero values otherwise.
func argument(in reflect.Type, n int) reflect.Value {
	v := reflect.New(in).Elem()
	switch in.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(max(n, 0)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(n))
	case reflect.Slice:
		v = reflect.MakeSlice(in, max(n, 0), max(n, 0))
	case reflect.Pointer:
		if in == requestType {
			v = reflect.ValueOf(httptest.NewRequest(http.MethodGet, "/", nil)) // what net/http hands a handler
			break
		}
		// A zero value of another module's type (a zero os.Root or
		// regexp.Regexp) is no value a caller can hold: nil stands for it.
		if n != 0 && strings.HasPrefix(in.Elem().PkgPath(), module) {
			v = reflect.New(in.Elem())
		}
	case reflect.Map:
		if n != 0 {
			v = reflect.MakeMap(in)
		}
		if n > 0 {
			v.SetMapIndex(reflect.Zero(in.Key()), reflect.Zero(in.Elem()))
		}
	case reflect.Func:
		v = reflect.MakeFunc(in, func([]reflect.Value) []reflect.Value {
			out := make([]reflect.Value, in.NumOut())
			for k := range out {
				out[k] = reflect.Zero(in.Out(k))
			}
			return out
		})
	case reflect.Interface:
		for _, make := range standIns {
			if s := make(); in.NumMethod() > 0 && reflect.TypeOf(s).Implements(in) {
				v.Set(reflect.ValueOf(s))
				break
			}
		}
	}
	return v
}

// call calls f with args, failing t if it panics or does not return
// within callTimeout.
func call(t testing.TB, what string, f reflect.Value, args []reflect.Value) {
	t.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		if f.Type().IsVariadic() {
			f.CallSlice(args)
		} else {
			f.Call(args)
		}
	}()
	select {
	case r := <-done:
		if r != nil {
			t.Errorf("%s panics: %v", what, r)
		}
	case <-time.After(callTimeout):
		t.Errorf("%s has not returned after %v", what, callTimeout)
	}
}

// funcName is the name of a package-level function: "Name" of
// "path/pkg.Name" (or "path/pkg.Name[...]").
func funcName(f reflect.Value) string {
	full := runtime.FuncForPC(f.Pointer()).Name()
	if i := strings.Index(full, "["); i >= 0 {
		full = full[:i]
	}
	return full[strings.LastIndex(full, ".")+1:]
}

// declared lists the exported functions ("Name") and the exported methods
// of exported types ("Type.Name") declared in the non-test files of the
// package in the current folder that build here.
func declared(t testing.TB) []string {
	t.Helper()
	dir, err := filepath.Abs(".")
	require(t, err == nil, "%v", err)
	pkg, err := build.ImportDir(dir, 0)
	require(t, err == nil, "%v", err)
	fset := token.NewFileSet()
	var names []string
	for _, file := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, file), nil, parser.SkipObjectResolution)
		require(t, err == nil, "%v", err)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			if fd.Recv == nil {
				names = append(names, fd.Name.Name)
				continue
			}
			if typ := recvType(fd.Recv.List[0].Type); ast.IsExported(typ) {
				names = append(names, typ+"."+fd.Name.Name)
			}
		}
	}
	sort.Strings(names)
	return names
}

// recvType is the name of a receiver's type: T of T, *T, T[P] or *T[P].
func recvType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

func require(t testing.TB, ok bool, format string, args ...any) {
	t.Helper()
	if !ok {
		t.Fatalf(format, args...)
	}
}
