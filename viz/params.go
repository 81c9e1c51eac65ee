package viz

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
)

// ErrParam is wrapped by every error a scene returns for an unknown
// parameter or a bad value; test with errors.Is.
var ErrParam = errors.New("viz: bad parameter")

// paramSet holds a scene's parameter specs and current values, and checks
// values by kind, so that every scene validates its input the same way.
// Values are stored in canonical form: a choice as spelt in Options, an int
// in decimal, a bool as "true"/"false", a number as the shortest text that
// reads back exactly.
type paramSet struct {
	specs  []Param
	values map[string]string
	// text validates and normalizes the value of a text parameter; nil
	// accepts anything.
	text map[string]func(string) (string, error)
}

func newParamSet(specs ...Param) *paramSet {
	p := &paramSet{specs: specs, values: map[string]string{}, text: map[string]func(string) (string, error){}}
	for _, s := range specs {
		p.values[s.Name] = s.Default
	}
	return p
}

// Params returns a copy of the specs, whose Default fields hold the
// defaults (not the current values).
func (p *paramSet) Params() []Param {
	out := make([]Param, len(p.specs))
	for i, s := range p.specs {
		s.Options = append([]string(nil), s.Options...)
		out[i] = s
	}
	return out
}

func (p *paramSet) spec(name string) (*Param, error) {
	for i := range p.specs {
		if p.specs[i].Name == name {
			return &p.specs[i], nil
		}
	}
	names := make([]string, len(p.specs))
	for i, s := range p.specs {
		names[i] = s.Name
	}
	return nil, fmt.Errorf("%w: unknown parameter %q (known: %s)", ErrParam, name, strings.Join(names, ", "))
}

// Get returns the current value of a parameter.
func (p *paramSet) Get(name string) (string, error) {
	if _, err := p.spec(name); err != nil {
		return "", err
	}
	return p.values[name], nil
}

// normalize checks value against the spec of name and returns its canonical
// form, or an error wrapping ErrParam.
func (p *paramSet) normalize(name, value string) (string, error) {
	s, err := p.spec(name)
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(value)
	bad := func(format string, args ...any) (string, error) {
		return "", fmt.Errorf("%w: %s=%q: %s", ErrParam, name, value, fmt.Sprintf(format, args...))
	}
	switch s.Kind {
	case ParamChoice:
		for _, o := range s.Options {
			if strings.EqualFold(o, v) {
				return o, nil
			}
		}
		return bad("want one of %s", strings.Join(s.Options, ", "))
	case ParamBool:
		switch strings.ToLower(v) {
		case "true", "1", "on", "yes", "t":
			return "true", nil
		case "false", "0", "off", "no", "f":
			return "false", nil
		}
		return bad("want true or false")
	case ParamInt:
		n, err := strconv.ParseInt(v, 0, 64)
		if strings.ContainsRune(v, '_') {
			return bad("want an integer") // fp8's number grammar has no underscores
		}
		if err != nil {
			f, ferr := fp8.ParseNumber(v, 64)
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				return bad("want an integer")
			}
			n = int64(f)
		}
		if float64(n) < s.Min || float64(n) > s.Max {
			return bad("want an integer in %d..%d", int64(s.Min), int64(s.Max)) // 0..1048576, not 1.048576e+06
		}
		return strconv.FormatInt(n, 10), nil
	case ParamNumber:
		f, err := fp8.ParseNumber(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return bad("want a finite number")
		}
		if f < s.Min || f > s.Max {
			return bad("want a number in %g..%g", s.Min, s.Max)
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	case ParamText:
		if fn := p.text[name]; fn != nil {
			out, err := fn(v)
			if err != nil {
				return bad("%v", err)
			}
			return out, nil
		}
		return v, nil
	}
	return bad("unknown kind %q", s.Kind)
}

// set validates and stores a value; it reports whether the value changed.
func (p *paramSet) set(name, value string) (bool, error) {
	v, err := p.normalize(name, value)
	if err != nil {
		return false, err
	}
	changed := p.values[name] != v
	p.values[name] = v
	return changed, nil
}

// setAndApply stores a value and runs apply (the scene's recomputation); if
// apply refuses the new value, the old one is restored and applied again, so
// a bad combination leaves the scene as it was, and the error wraps ErrParam.
func (p *paramSet) setAndApply(name, value string, apply func() error) error {
	old := p.str(name)
	if _, err := p.set(name, value); err != nil {
		return err
	}
	if err := apply(); err != nil {
		p.values[name] = old
		_ = apply()
		return fmt.Errorf("%w: %s=%q: %v", ErrParam, name, value, err)
	}
	return nil
}

// str returns the stored value of name.
func (p *paramSet) str(name string) string { return p.values[name] }

// int returns the stored value of an int parameter.
func (p *paramSet) int(name string) int {
	n, _ := strconv.Atoi(p.values[name])
	return n
}

// float returns the stored value of a number or int parameter.
func (p *paramSet) float(name string) float64 {
	f, _ := strconv.ParseFloat(p.values[name], 64)
	return f
}

// bool returns the stored value of a bool parameter.
func (p *paramSet) bool(name string) bool { return p.values[name] == "true" }

// key joins the current values of the named parameters, for caching
// results that depend on them.
func (p *paramSet) key(names ...string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n)
		b.WriteByte('=')
		b.WriteString(p.values[n])
		b.WriteByte(';')
	}
	return b.String()
}

// formatNames returns the names of fp8's presets accepted by pred.
func formatNames(pred func(*fp8.Format) bool) []string {
	var out []string
	for _, f := range fp8.Presets() {
		if pred == nil || pred(f) {
			out = append(out, f.Name())
		}
	}
	return out
}
