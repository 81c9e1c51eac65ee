package parity

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/tensorio"
)

// DumpVersion is the manifest format Dump writes (manifest.json "version").
const DumpVersion = 1

// Scale semantics written into every manifest, so that an oracle reads the
// rule instead of guessing it (scaling.Quantize and Quantized.Dequantize).
const (
	// DumpScaleFloat32 describes scales.npy of the float32-scale granularities.
	DumpScaleFloat32 = "float32 encode multiplier s per block: code = enc(float32(x) * s), one float32 multiply; value = dec(code) / s, one float32 division"
	// DumpScaleE8M0 describes scale_codes.npy of MX.
	DumpScaleE8M0 = "E8M0 code c per block, decode scale X = 2^(c-127): code = enc(float32(x) * 2^(127-c)), exact; value = dec(code) * X; scales.npy holds 2^(127-c)"
)

// DumpConfig configures Dump.
type DumpConfig struct {
	// Seed seeds every input tensor (MakeInput) and stochastic stream.
	Seed uint64
	// Codecs lists the codecs of the nearest-rounding quantize cases; nil
	// means software, plus hardware when the backend reports HardwareFP8.
	Codecs []native.Codec
	// Log, when not nil, receives one line per case.
	Log io.Writer
}

// DumpGranularity describes the blocks of one quantization or amax grid.
type DumpGranularity struct {
	Name      string `json:"name"`
	BlockRows int    `json:"block_rows"`
	BlockCols int    `json:"block_cols"`
	ScaleRows int    `json:"scale_rows"`
	ScaleCols int    `json:"scale_cols"`
}

// DumpCase is one operation run on the backend. Files maps a role (x,
// codes, scales, scale_codes, amax, out, a, b, a_codes, ...) to a .npy file
// in the dump directory: float32 tensors, or uint8 for codes.
type DumpCase struct {
	Name   string `json:"name"`
	Op     string `json:"op"`     // amax, quantize, dequantize, fwht, scaled_matmul, matmul_bf16
	Status string `json:"status"` // ok, skipped (native.ErrUnsupported) or failed (any other error)
	Reason string `json:"reason,omitempty"`
	Rows   int    `json:"rows,omitempty"`
	Cols   int    `json:"cols,omitempty"`

	Format      string           `json:"format,omitempty"`
	Granularity *DumpGranularity `json:"granularity,omitempty"`
	// ScaleSource is "rule" (ScaleRule from the amax), "mx" (MXRounding
	// from the amax) or "given" (QuantizeOptions.Scales).
	ScaleSource    string             `json:"scale_source,omitempty"`
	ScaleSemantics string             `json:"scale_semantics,omitempty"`
	Rule           *scaling.ScaleRule `json:"scale_rule,omitempty"` // Eps resolved (never 0)
	MXRounding     string             `json:"mx_rounding,omitempty"`
	MXEmax         int                `json:"mx_emax,omitempty"`
	Saturating     bool               `json:"saturating,omitempty"`
	Codec          string             `json:"codec,omitempty"`
	Rounding       string             `json:"rounding,omitempty"` // nearest-even or stochastic
	RandomBits     int                `json:"random_bits,omitempty"`

	Block int `json:"block,omitempty"` // fwht
	// Products: A is M×K, B is K×N.
	M            int              `json:"m,omitempty"`
	K            int              `json:"k,omitempty"`
	N            int              `json:"n,omitempty"`
	FormatB      string           `json:"format_b,omitempty"`
	GranularityB *DumpGranularity `json:"granularity_b,omitempty"`
	Output       string           `json:"output,omitempty"`

	Files map[string]string `json:"files,omitempty"`
}

// DumpManifest is manifest.json: the backend, the tolerances an oracle
// applies to the products, and every case.
type DumpManifest struct {
	Version     int         `json:"version"`
	Backend     native.Info `json:"backend"`
	Seed        uint64      `json:"seed"`
	GEMMTolFP8  float64     `json:"gemm_tol_fp8"`
	GEMMTolBF16 float64     `json:"gemm_tol_bf16"`
	Cases       []DumpCase  `json:"cases"`
	OK          int         `json:"ok"`
	Skipped     int         `json:"skipped"`
	Failed      int         `json:"failed"`
	Bytes       int64       `json:"bytes"` // .npy bytes written
}

// Err names the cases the backend failed (errors other than
// native.ErrUnsupported), or nil.
func (m *DumpManifest) Err() error {
	if m == nil || m.Failed == 0 {
		return nil
	}
	for _, c := range m.Cases {
		if c.Status == "failed" {
			return fmt.Errorf("dump: %d cases failed on the backend, first %s: %s", m.Failed, c.Name, c.Reason)
		}
	}
	return nil
}

// dumper is the state of one Dump.
type dumper struct {
	dut    native.Backend
	dir    string
	cfg    DumpConfig
	man    *DumpManifest
	inputs map[string]string // input key -> file name, each input written once
}

// Dump runs a fixed, seeded set of cases on dut and writes into dir, which
// must not exist or be an empty directory, the inputs, scales and dut's
// outputs as .npy files and manifest.json describing every case, for an
// oracle outside fp8lab (scripts/gpu/torch_oracle.py) to check. A case dut
// answers with native.ErrUnsupported is recorded as skipped, any other
// error of dut as failed; the returned error reports setup and I/O
// failures only (see DumpManifest.Err).
func Dump(dut native.Backend, dir string, cfg DumpConfig) (*DumpManifest, error) {
	if dut == nil {
		return nil, fmt.Errorf("%w: nil backend", native.ErrInvalidArgument)
	}
	if err := prepareDumpDir(dir); err != nil {
		return nil, err
	}
	d := &dumper{dut: dut, dir: dir, cfg: cfg, inputs: map[string]string{},
		man: &DumpManifest{Version: DumpVersion, Backend: dut.Info(), Seed: cfg.Seed, GEMMTolFP8: native.GEMMTolFP8, GEMMTolBF16: native.GEMMTolBF16}}
	if d.cfg.Codecs == nil {
		d.cfg.Codecs = []native.Codec{native.CodecSoftware}
		if d.man.Backend.HardwareFP8 {
			d.cfg.Codecs = append(d.cfg.Codecs, native.CodecHardware)
		}
	}
	for _, step := range []func() error{d.amax, d.quantize, d.stochastic, d.givenScales, d.dequantize, d.fwht, d.products} {
		if err := step(); err != nil {
			return d.man, err
		}
	}
	b, err := json.MarshalIndent(d.man, "", " ")
	if err != nil {
		return d.man, err
	}
	return d.man, os.WriteFile(filepath.Join(dir, "manifest.json"), append(b, '\n'), 0o644)
}

// prepareDumpDir creates dir, or accepts it when it is an empty directory
// (or a symlink to one).
func prepareDumpDir(dir string) error {
	if dir == "" {
		return fmt.Errorf("%w: no dump directory", native.ErrInvalidArgument)
	}
	fi, err := os.Stat(dir) // follows a symlink
	if errors.Is(err, fs.ErrNotExist) {
		if li, lerr := os.Lstat(dir); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%w: %s is a symlink to nothing", native.ErrInvalidArgument, dir)
		}
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		what := "a file"
		if fi.Mode()&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0 {
			what = "a device, pipe or socket"
		}
		return fmt.Errorf("%w: %s is %s, not a directory", native.ErrInvalidArgument, dir, what)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%w: %s is not empty (%d entries); dump into a new directory", native.ErrInvalidArgument, dir, len(entries))
	}
	return nil
}

// add records a case whose outputs are written by write when err is nil.
func (d *dumper) add(c DumpCase, err error, write func(c *DumpCase) error) error {
	switch {
	case errors.Is(err, native.ErrUnsupported):
		c.Status, c.Reason = "skipped", err.Error()
		d.man.Skipped++
	case err != nil:
		c.Status, c.Reason = "failed", err.Error()
		d.man.Failed++
	default:
		if c.Files == nil {
			c.Files = map[string]string{}
		}
		if werr := write(&c); werr != nil {
			return werr
		}
		c.Status = "ok"
		d.man.OK++
	}
	d.man.Cases = append(d.man.Cases, c)
	if d.cfg.Log != nil {
		fmt.Fprintf(d.cfg.Log, "%-7s %s %s\n", c.Status, c.Name, c.Reason)
	}
	return nil
}

// prefix returns the file-name prefix of the next case.
func (d *dumper) prefix() string { return fmt.Sprintf("c%03d_", len(d.man.Cases)) }

// writeFile creates name in the dump directory and writes it with w.
func (d *dumper) writeFile(name string, w func(io.Writer) error) error {
	f, err := os.Create(filepath.Join(d.dir, name))
	if err != nil {
		return err
	}
	if err := w(f); err != nil {
		f.Close()
		return fmt.Errorf("dump: writing %s: %w", name, err)
	}
	if fi, err := f.Stat(); err == nil {
		d.man.Bytes += fi.Size()
	}
	return f.Close()
}

// tensor writes t as float32 .npy.
func (d *dumper) tensor(name string, t *scaling.Tensor) error {
	return d.writeFile(name, func(w io.Writer) error { return tensorio.WriteNPY(w, t) })
}

// codes writes a rows×cols uint8 .npy.
func (d *dumper) codes(name string, rows, cols int, b []uint8) error {
	return d.writeFile(name, func(w io.Writer) error { return tensorio.WriteNPYUint8(w, rows, cols, b) })
}

// input returns the seeded input and its file, written on first use.
func (d *dumper) input(rows, cols int, kind InputKind, seed uint64) (*scaling.Tensor, string, error) {
	t, err := MakeInput(rows, cols, kind, seed)
	if err != nil {
		return nil, "", err
	}
	name := fmt.Sprintf("in_%dx%d_%s_%d.npy", rows, cols, kind, seed)
	if _, ok := d.inputs[name]; !ok {
		if err := d.tensor(name, t); err != nil {
			return nil, "", err
		}
		d.inputs[name] = name
	}
	return t, name, nil
}

// dumpGranularity describes g on a rows×cols tensor.
func dumpGranularity(g scaling.Granularity, rows, cols int) (*DumpGranularity, error) {
	br, bc, err := g.BlockShape(rows, cols)
	if err != nil {
		return nil, err
	}
	return &DumpGranularity{Name: g.String(), BlockRows: br, BlockCols: bc, ScaleRows: (rows + br - 1) / br, ScaleCols: (cols + bc - 1) / bc}, nil
}

// writeQuantized writes the codes, scales and (MX) scale codes of q under
// prefix p with role names prefixed by role ("" or "a_", "b_").
func (d *dumper) writeQuantized(c *DumpCase, p, role string, q *scaling.Quantized) error {
	c.Files[role+"codes"] = p + role + "codes.npy"
	if err := d.codes(c.Files[role+"codes"], q.Rows, q.Cols, q.Codes); err != nil {
		return err
	}
	c.Files[role+"scales"] = p + role + "scales.npy"
	if err := d.tensor(c.Files[role+"scales"], &scaling.Tensor{Rows: q.ScaleRows, Cols: q.ScaleCols, Data: q.Scales}); err != nil {
		return err
	}
	if q.ScaleCodes != nil {
		c.Files[role+"scale_codes"] = p + role + "scale_codes.npy"
		return d.codes(c.Files[role+"scale_codes"], q.ScaleRows, q.ScaleCols, q.ScaleCodes)
	}
	return nil
}

// quantGranularities are the granularities of the quantize and dequantize
// cases: the recipes the GPU implements.
func quantGranularities() []scaling.Granularity {
	return []scaling.Granularity{scaling.PerTensor, scaling.PerRow, scaling.Tile1x128, scaling.Block128, scaling.MX}
}

// dumpShapes are the elementwise shapes: aligned blocks, and partial ones.
var dumpShapes = [][2]int{{256, 512}, {130, 300}}

func (d *dumper) amax() error {
	gs := []scaling.Granularity{scaling.PerTensor, scaling.PerRow, scaling.PerCol, scaling.Tile1x128, scaling.Block128, scaling.MX}
	for _, sh := range dumpShapes {
		for _, kind := range []InputKind{InputNormal, InputSpecial} {
			t, in, err := d.input(sh[0], sh[1], kind, d.cfg.Seed)
			if err != nil {
				return err
			}
			for _, g := range gs {
				dg, err := dumpGranularity(g, sh[0], sh[1])
				if err != nil {
					return err
				}
				c := DumpCase{Name: fmt.Sprintf("amax %s %dx%d %s", g, sh[0], sh[1], kind), Op: "amax", Rows: sh[0], Cols: sh[1],
					Granularity: dg, Files: map[string]string{"x": in}}
				a, err := d.dut.Amax(t, g)
				p := d.prefix()
				if err := d.add(c, err, func(c *DumpCase) error {
					c.Files["amax"] = p + "amax.npy"
					return d.tensor(c.Files["amax"], a)
				}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// quantCase describes a quantization for the manifest.
func (d *dumper) quantCase(name string, rows, cols int, f *fp8.Format, g scaling.Granularity, o native.QuantizeOptions, in string) (DumpCase, error) {
	dg, err := dumpGranularity(g, rows, cols)
	if err != nil {
		return DumpCase{}, err
	}
	c := DumpCase{Name: name, Op: "quantize", Rows: rows, Cols: cols, Format: f.Name(), Granularity: dg,
		Saturating: true, Codec: o.Codec.String(), Rounding: "nearest-even", Files: map[string]string{"x": in}}
	switch {
	case o.Scales != nil:
		c.ScaleSource, c.ScaleSemantics = "given", DumpScaleFloat32
	case g.FloatScales():
		r := o.Rule
		if r.Eps == 0 {
			r.Eps = scaling.DefaultEps
		}
		c.ScaleSource, c.ScaleSemantics, c.Rule = "rule", DumpScaleFloat32, &r
	default:
		emax, err := scaling.MXEmax(f)
		if err != nil {
			return DumpCase{}, err
		}
		c.ScaleSource, c.ScaleSemantics, c.MXRounding, c.MXEmax = "mx", DumpScaleE8M0, o.MXRounding.String(), emax
	}
	if s := o.Stochastic; s != nil {
		c.Rounding, c.RandomBits = "stochastic", s.Bits
	}
	return c, nil
}

// quantizeOne runs one quantization and records it.
func (d *dumper) quantizeOne(name string, t *scaling.Tensor, in string, f *fp8.Format, g scaling.Granularity, o native.QuantizeOptions) error {
	c, err := d.quantCase(name+" codec="+o.Codec.String(), t.Rows, t.Cols, f, g, o, in)
	if err != nil {
		return err
	}
	q, err := d.dut.Quantize(t, f, g, o)
	p := d.prefix()
	return d.add(c, err, func(c *DumpCase) error { return d.writeQuantized(c, p, "", q) })
}

func (d *dumper) quantize() error {
	type variant struct {
		kind InputKind
		rule scaling.ScaleRule
		mx   fp8.ScaleRounding
	}
	// Pow2Up lets amax·scale reach 2·Max: saturation is exercised too.
	variants := []variant{
		{InputNormal, scaling.ScaleRule{}, fp8.ScaleFloor},
		{InputWide, scaling.ScaleRule{Pow2: scaling.Pow2Up, Margin: -1}, fp8.ScaleCeil},
		{InputTies, scaling.ScaleRule{Pow2: scaling.Pow2Down}, fp8.ScaleNearestEven},
	}
	for _, sh := range dumpShapes {
		for vi, v := range variants {
			t, in, err := d.input(sh[0], sh[1], v.kind, d.cfg.Seed+uint64(vi))
			if err != nil {
				return err
			}
			for _, g := range quantGranularities() {
				for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
					o := native.QuantizeOptions{Rule: v.rule}
					if !g.FloatScales() {
						o = native.QuantizeOptions{MXRounding: v.mx}
					}
					for _, codec := range d.cfg.Codecs {
						o.Codec = codec
						name := fmt.Sprintf("quantize %s %s %dx%d %s nearest", f.Name(), g, sh[0], sh[1], v.kind)
						if err := d.quantizeOne(name, t, in, f, g, o); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// stochastic runs one stochastic case per format; stochastic rounding uses
// the software codec on every backend.
func (d *dumper) stochastic() error {
	t, in, err := d.input(256, 512, InputNormal, d.cfg.Seed+7)
	if err != nil {
		return err
	}
	for i, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
		st := &native.Stochastic{Seed: d.cfg.Seed, Stream: uint64(100 + i), Bits: []int{32, 8}[i]}
		o := native.QuantizeOptions{Stochastic: st, Codec: native.CodecSoftware}
		name := fmt.Sprintf("quantize %s %s 256x512 normal stochastic%d", f.Name(), scaling.Tile1x128, st.Bits)
		if err := d.quantizeOne(name, t, in, f, scaling.Tile1x128, o); err != nil {
			return err
		}
	}
	return nil
}

// givenScales quantizes the special input (NaN, ±Inf, values far beyond
// Max) with given scales, so that every special value reaches the codec.
func (d *dumper) givenScales() error {
	t, in, err := d.input(130, 300, InputSpecial, d.cfg.Seed+99)
	if err != nil {
		return err
	}
	for _, g := range []scaling.Granularity{scaling.PerTensor, scaling.PerRow, scaling.Tile1x128, scaling.Block128} {
		dg, err := dumpGranularity(g, t.Rows, t.Cols)
		if err != nil {
			return err
		}
		scales := make([]float32, dg.ScaleRows*dg.ScaleCols)
		for i := range scales {
			scales[i] = []float32{1, 0.75, 3.1, 0x1p-20, 0x1p10, 1e-30}[i%6]
		}
		for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
			for _, codec := range d.cfg.Codecs {
				name := fmt.Sprintf("quantize-scales %s %s 130x300 special nearest", f.Name(), g)
				if err := d.quantizeOne(name, t, in, f, g, native.QuantizeOptions{Scales: scales, Codec: codec}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (d *dumper) dequantize() error {
	for _, sh := range dumpShapes {
		t, err := MakeInput(sh[0], sh[1], InputWide, d.cfg.Seed+5)
		if err != nil {
			return err
		}
		for _, g := range quantGranularities() {
			for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
				q, err := native.NewCPU().Quantize(t, f, g, native.QuantizeOptions{})
				if err != nil {
					return fmt.Errorf("dump: preparing dequantize %s %s: %w", f.Name(), g, err)
				}
				c, err := d.quantCase(fmt.Sprintf("dequantize %s %s %dx%d", f.Name(), g, sh[0], sh[1]), sh[0], sh[1], f, g, native.QuantizeOptions{}, "")
				if err != nil {
					return err
				}
				c.Op, c.Codec, c.Rounding, c.Files = "dequantize", "", "", nil
				out, err := d.dut.Dequantize(q)
				p := d.prefix()
				if err := d.add(c, err, func(c *DumpCase) error {
					if err := d.writeQuantized(c, p, "", q); err != nil {
						return err
					}
					c.Files["out"] = p + "out.npy"
					return d.tensor(c.Files["out"], out)
				}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (d *dumper) fwht() error {
	for _, bc := range [][2]int{{128, 64}, {4096, 8}, {32768, 2}} {
		t, in, err := d.input(bc[1], bc[0], InputNormal, d.cfg.Seed+uint64(bc[0]))
		if err != nil {
			return err
		}
		out := t.Clone()
		err = d.dut.FWHT(out.Data, bc[0])
		c := DumpCase{Name: fmt.Sprintf("fwht block %d x %d", bc[0], bc[1]), Op: "fwht", Rows: t.Rows, Cols: t.Cols, Block: bc[0],
			Files: map[string]string{"x": in}}
		p := d.prefix()
		if err := d.add(c, err, func(c *DumpCase) error {
			c.Files["out"] = p + "out.npy"
			return d.tensor(c.Files["out"], out)
		}); err != nil {
			return err
		}
	}
	return nil
}

// products runs the scaled FP8 products and the BF16 product, float32 out.
func (d *dumper) products() error {
	for _, s := range [][3]int{{64, 128, 48}, {128, 1024, 256}} {
		m, k, n := s[0], s[1], s[2]
		a, ain, err := d.input(m, k, InputNormal, d.cfg.Seed+21)
		if err != nil {
			return err
		}
		b, bin, err := d.input(k, n, InputNormal, d.cfg.Seed+22)
		if err != nil {
			return err
		}
		for _, pr := range productPairs {
			cpu := native.NewCPU()
			qa, err1 := cpu.Quantize(a, pr.fa, pr.ga, native.QuantizeOptions{})
			qb, err2 := cpu.Quantize(b, pr.fb, pr.gb, native.QuantizeOptions{})
			if err := errors.Join(err1, err2); err != nil {
				return fmt.Errorf("dump: preparing a product: %w", err)
			}
			dga, err1 := dumpGranularity(pr.ga, m, k)
			dgb, err2 := dumpGranularity(pr.gb, k, n)
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			c := DumpCase{Name: fmt.Sprintf("scaled-matmul %s(%s)x%s(%s) %dx%dx%d -> float32", pr.fa.Name(), pr.ga, pr.fb.Name(), pr.gb, m, k, n),
				Op: "scaled_matmul", M: m, K: k, N: n, Format: pr.fa.Name(), Granularity: dga, FormatB: pr.fb.Name(), GranularityB: dgb,
				ScaleSemantics: DumpScaleFloat32, Output: native.OutputFloat32.String()}
			out, err := d.dut.ScaledMatMul(qa, qb, native.OutputFloat32)
			p := d.prefix()
			if err := d.add(c, err, func(c *DumpCase) error {
				if err := errors.Join(d.writeQuantized(c, p, "a_", qa), d.writeQuantized(c, p, "b_", qb)); err != nil {
					return err
				}
				c.Files["out"] = p + "out.npy"
				return d.tensor(c.Files["out"], out)
			}); err != nil {
				return err
			}
		}
		c := DumpCase{Name: fmt.Sprintf("matmul-bf16 %dx%dx%d -> float32", m, k, n), Op: "matmul_bf16", M: m, K: k, N: n,
			Output: native.OutputFloat32.String(), Files: map[string]string{"a": ain, "b": bin}}
		out, err := d.dut.MatMulBF16(a, b, native.OutputFloat32)
		p := d.prefix()
		if err := d.add(c, err, func(c *DumpCase) error {
			c.Files["out"] = p + "out.npy"
			return d.tensor(c.Files["out"], out)
		}); err != nil {
			return err
		}
	}
	return nil
}
