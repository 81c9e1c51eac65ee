package scaling

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
)

// ScaleKind says how a granularity stores its block scales.
type ScaleKind uint8

// The scale storages in use.
const (
	// ScaleFloat32: one float32 encode multiplier per block, from a
	// ScaleRule (current scaling) or given (QuantizeWithScales).
	ScaleFloat32 ScaleKind = iota
	// ScaleE8M0: one power-of-two decode scale per block, an E8M0 code
	// (OCP MX's shared exponent, fp8.MXScale).
	ScaleE8M0
	// ScaleE4M3: one E4M3FN decode scale per block times one float32
	// tensor scale (NVFP4's two-level scaling).
	ScaleE4M3
)

// side is how one side (rows or columns) of a granularity's block is sized.
type side struct {
	whole bool // the block spans the tensor's whole side (the def is unused)
	def   int  // the size when the Granularity says 0
	free  bool // any positive size may be given; otherwise only 0 or def
	alt   int  // another size that may be given (NVFP4's 16-row weight blocks), or 0
}

// granularitySpec is everything that depends on a granularity's kind. The
// methods of Granularity, Quantize, Dequantize and Check, and through the
// exported accessors native and viz, read it from granularitySpecs; adding
// a kind means adding one entry there (and its tests).
type granularitySpec struct {
	name    string   // the CLI name (String, ParseGranularity) of the default shape
	aliases []string // other names ParseGranularity reads for the default shape
	syntax  string   // how the names read in ParseGranularity's error
	desc    string   // one line for help texts
	// takesShape: Granularity.BlockRows/BlockCols may be set (otherwise
	// both must be 0) and Quantize records the resolved shape.
	takesShape bool
	rows, cols side
	shapeHelp  string // Validate's complaint about a bad shape
	// format and formatLabel give the CLI name (tile1xN, blockRxC) and the
	// display label ("1×128 tile") of a block shape; where they are nil,
	// name and label are used as they are.
	format      func(br, bc int) string
	label       string
	formatLabel func(br, bc int) string
	// parse reads the text after prefix in a name (tile1x128: "128").
	prefix string
	parse  func(rest string) (Granularity, bool)

	scale       ScaleKind
	scaleSource string      // whose rule fixes non-float32 scales (errors)
	element     *fp8.Format // the one element format allowed, or nil

	// transpose is the kind whose blocks on Xᵀ are this kind's blocks on X,
	// with the block sides swapped; Transpose checks that the swapped
	// shape is one the kind takes (MX's 1×32 would be 32×1: it has none).
	transpose Kind
	// gpu: the CUDA quantize kernels (native/cuda, through
	// native/internal/launch) implement the kind; the GPU refuses the others
	// with native.ErrUnsupported and the parity suite skips them.
	gpu bool
}

// granularitySpecs is the table of per-granularity behaviour, by Kind.
var granularitySpecs = [...]granularitySpec{
	KindTensor: {
		name: "tensor", aliases: []string{"tensorwise", "per-tensor"}, syntax: "tensor",
		desc:      "one scale for the whole tensor (torchao tensorwise, Transformer Engine)",
		rows:      side{whole: true},
		cols:      side{whole: true},
		shapeHelp: "takes no block shape",
		label:     "tensor",
		scale:     ScaleFloat32,
		transpose: KindTensor, gpu: true,
	},
	KindRow: {
		name: "row", aliases: []string{"rowwise", "per-row"}, syntax: "row",
		desc:      "one scale per row (torchao rowwise, per-token activations)",
		rows:      side{def: 1},
		cols:      side{whole: true},
		shapeHelp: "takes no block shape",
		label:     "row",
		scale:     ScaleFloat32,
		transpose: KindCol, gpu: true,
	},
	KindCol: {
		name: "col", aliases: []string{"column", "colwise", "per-col", "per-column"}, syntax: "col",
		desc:      "one scale per column (per-channel weights)",
		rows:      side{whole: true},
		cols:      side{def: 1},
		shapeHelp: "takes no block shape",
		label:     "column",
		scale:     ScaleFloat32,
		transpose: KindRow,
	},
	KindTile: {
		name: "tile1x128", aliases: []string{"tile"}, syntax: "tile1xN",
		desc:       "1×N tiles along each row (DeepSeek-V3 activations: 1×128)",
		takesShape: true,
		rows:       side{def: 1},
		cols:       side{def: DefaultTile, free: true},
		shapeHelp:  "needs a 1×N tile with N > 0",
		format:     func(_, bc int) string { return "tile1x" + strconv.Itoa(bc) },
		formatLabel: func(_, bc int) string {
			return fmt.Sprintf("1×%d tile", bc)
		},
		prefix: "tile1x",
		parse: func(rest string) (Granularity, bool) {
			n, err := parseSize(rest)
			return Tile(n), err == nil
		},
		scale:     ScaleFloat32,
		transpose: KindColTile, gpu: true,
	},
	KindBlock: {
		name: "block128", aliases: []string{"block"}, syntax: "blockN, blockRxC",
		desc:       "R×C blocks (DeepSeek-V3 weights: 128×128)",
		takesShape: true,
		rows:       side{def: DefaultBlock, free: true},
		cols:       side{def: DefaultBlock, free: true},
		shapeHelp:  "needs a positive block shape",
		format: func(br, bc int) string {
			if br == bc {
				return "block" + strconv.Itoa(br)
			}
			return fmt.Sprintf("block%dx%d", br, bc)
		},
		formatLabel: func(br, bc int) string { return fmt.Sprintf("%d×%d block", br, bc) },
		prefix:      "block",
		parse: func(rest string) (Granularity, bool) {
			rs, cs, found := strings.Cut(rest, "x")
			r, err := parseSize(rs)
			if err != nil {
				return Granularity{}, false
			}
			c := r
			if found {
				if c, err = parseSize(cs); err != nil {
					return Granularity{}, false
				}
			}
			return Block(r, c), true
		},
		scale:     ScaleFloat32,
		transpose: KindBlock, gpu: true,
	},
	KindMX: {
		name: "mx", aliases: []string{"mx32"}, syntax: "mx",
		desc:        "OCP MX: 1×32 blocks with a power-of-two E8M0 scale",
		takesShape:  true,
		rows:        side{def: 1},
		cols:        side{def: MXBlockSize},
		shapeHelp:   "blocks are 1×32 (OCP MX v1.0)",
		label:       "MX",
		scale:       ScaleE8M0,
		scaleSource: "OCP MX",
		transpose:   KindMX, gpu: true,
	},
	KindNVFP4: {
		name: "nvfp4", syntax: "nvfp4, nvfp4-16x16",
		desc:       "NVIDIA NVFP4: 1×16 E2M1 blocks (16×16 for weights) with E4M3 scales and a float32 tensor scale",
		takesShape: true,
		rows:       side{def: 1, alt: NVFP4BlockSize},
		cols:       side{def: NVFP4BlockSize},
		shapeHelp:  "blocks are 1×16, or 16×16 for weights",
		format: func(br, bc int) string {
			if br == 1 {
				return "nvfp4"
			}
			return fmt.Sprintf("nvfp4-%dx%d", br, bc)
		},
		formatLabel: func(br, bc int) string {
			if br == 1 {
				return "NVFP4"
			}
			return fmt.Sprintf("NVFP4 %d×%d", br, bc)
		},
		prefix: "nvfp4-",
		parse: func(rest string) (Granularity, bool) {
			return NVFP4Block16, rest == fmt.Sprintf("%dx%d", NVFP4BlockSize, NVFP4BlockSize)
		},
		scale:       ScaleE4M3,
		scaleSource: "NVIDIA's recipe",
		element:     fp8.E2M1,
		transpose:   KindNVFP4,
	},
	KindColTile: {
		name: "tile128x1", syntax: "tileNx1",
		desc:       "N×1 tiles down each column (DeepSeek-V3 backward-pass activations: 128×1)",
		takesShape: true,
		rows:       side{def: DefaultTile, free: true},
		cols:       side{def: 1},
		shapeHelp:  "needs an N×1 tile with N > 0",
		format:     func(br, _ int) string { return "tile" + strconv.Itoa(br) + "x1" },
		formatLabel: func(br, _ int) string {
			return fmt.Sprintf("%d×1 tile", br)
		},
		// After KindTile's "tile1x" in the table, so tile1xN stays a row
		// tile; "tile" then takes the rest (tile128x1: "128x1").
		prefix: "tile",
		parse: func(rest string) (Granularity, bool) {
			ns, ok := strings.CutSuffix(rest, "x1")
			if !ok {
				return Granularity{}, false
			}
			n, err := parseSize(ns)
			return ColTile(n), err == nil
		},
		scale:     ScaleFloat32,
		transpose: KindTile,
	},
}

// spec returns the table entry of g's kind, and whether the kind is known.
// An unknown kind gets the zero entry (float32 scales, no shape).
func (g Granularity) spec() (*granularitySpec, bool) {
	if int(g.Kind) < len(granularitySpecs) {
		return &granularitySpecs[g.Kind], true
	}
	return &granularitySpec{}, false
}

// Scales returns how g stores its block scales: float32 multipliers
// (tensor, row, col, tiles, block), E8M0 codes (MX) or E4M3FN codes with a
// float32 tensor scale (NVFP4).
func (g Granularity) Scales() ScaleKind {
	s, _ := g.spec()
	return s.scale
}

// FloatScales reports whether g's scales are float32 encode multipliers:
// those a ScaleRule computes and QuantizeWithScales accepts.
func (g Granularity) FloatScales() bool { return g.Scales() == ScaleFloat32 }

// ScaleFormat returns the format of g's block scale codes (Quantized's
// ScaleFormat): fp8.E8M0 for MX, fp8.E4M3FN for NVFP4, nil for float32
// scales.
func (g Granularity) ScaleFormat() *fp8.Format {
	switch g.Scales() {
	case ScaleE8M0:
		return fp8.E8M0
	case ScaleE4M3:
		return fp8.E4M3FN
	}
	return nil
}

// HasTensorScale reports whether g adds one float32 tensor scale to its
// block scales (NVFP4's second level, Quantized.TensorScale).
func (g Granularity) HasTensorScale() bool { return g.Scales() == ScaleE4M3 }

// ElementFormats returns the element formats g accepts, in fp8.Presets()
// order: the one ElementFormat where g has one (E2M1 for NVFP4), the OCP
// MX element types for E8M0 scales (MXEmax), every signed preset for
// float32 scales. Menus of element formats list these.
func (g Granularity) ElementFormats() []*fp8.Format {
	var out []*fp8.Format
	for _, f := range fp8.Presets() {
		if checkGranularityFormat(f, g) == nil {
			out = append(out, f)
		}
	}
	return out
}

// GPUQuantizes reports whether the CUDA quantize kernels implement g's kind
// (tensor, row, 1×N tiles, blocks and MX today); native's GPU backend
// refuses the others with ErrUnsupported.
func (g Granularity) GPUQuantizes() bool {
	s, ok := g.spec()
	return ok && s.gpu
}

// Transpose returns the granularity whose blocks on Xᵀ are g's blocks on
// X (row and col swap, 1×N tiles become N×1 tiles, R×C blocks C×R), and
// false where there is none (MX's and NVFP4's 1×N blocks have no N×1
// variant) or g is invalid. Quantizing Xᵀ with it gives the transpose of
// quantizing X with g (Quantized.Transpose), bit for bit.
func (g Granularity) Transpose() (Granularity, bool) {
	if g.Validate() != nil {
		return Granularity{}, false
	}
	s, _ := g.spec()
	br, bc := g.shapeOr()
	t := Granularity{Kind: s.transpose}
	if t.TakesBlockShape() {
		t.BlockRows, t.BlockCols = bc, br
	}
	if t.Validate() != nil {
		return Granularity{}, false
	}
	return t, true
}

// ElementFormat returns the one element format g allows (E2M1 for NVFP4),
// or nil when the caller chooses it.
func (g Granularity) ElementFormat() *fp8.Format {
	s, _ := g.spec()
	return s.element
}

// TakesBlockShape reports whether g has a block shape of its own (tiles,
// block, MX, NVFP4), which Quantize records in Quantized.Granularity, rather
// than one that follows the tensor's sides (tensor, row, col).
func (g Granularity) TakesBlockShape() bool {
	s, _ := g.spec()
	return s.takesShape
}

// WholeRows reports whether each of g's scales covers whole rows (tensor,
// row): the scale is constant along a row, so for a left operand A (M×K)
// it is constant along the contraction axis K and factors out of every dot
// product.
func (g Granularity) WholeRows() bool {
	s, ok := g.spec()
	return ok && s.cols.whole
}

// WholeCols reports whether each of g's scales covers whole columns
// (tensor, col): constant along K for a right operand B (K×N).
func (g Granularity) WholeCols() bool {
	s, ok := g.spec()
	return ok && s.rows.whole
}

// Label returns g's display name: "tensor", "row", "column", "1×128 tile",
// "128×128 block", "MX", "NVFP4", "128×1 tile".
func (g Granularity) Label() string {
	s, ok := g.spec()
	if !ok {
		return g.String()
	}
	if s.formatLabel != nil {
		br, bc := g.shapeOr()
		return s.formatLabel(br, bc)
	}
	return s.label
}

// Syntax returns how ParseGranularity reads names of g's kind: the name
// itself for kinds without a free block shape ("row", "mx"), the pattern
// for the others ("tile1xN", "blockN, blockRxC", "tileNx1"). Help texts
// list it beside String's default name.
func (g Granularity) Syntax() string {
	s, _ := g.spec()
	return s.syntax
}

// Description returns one line saying what g is and which recipe uses it.
func (g Granularity) Description() string {
	s, _ := g.spec()
	return s.desc
}

// shapeOr returns g's block shape with zeros replaced by the defaults (the
// sizes of whole sides are not known here and come back as 0).
func (g Granularity) shapeOr() (br, bc int) {
	s, _ := g.spec()
	or := func(v int, sd side) int {
		if v == 0 && !sd.whole {
			return sd.def
		}
		return v
	}
	return or(g.BlockRows, s.rows), or(g.BlockCols, s.cols)
}
