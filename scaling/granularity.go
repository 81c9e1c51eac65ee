package scaling

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind names a family of granularities: which elements share one scale.
type Kind uint8

// The granularities in use today. A new kind is a constant here (appended,
// so that the values of the others stay put) and an entry in the table
// granularitySpecs (granularity_spec.go).
const (
	// KindTensor: one scale for the whole tensor (torchao "tensorwise",
	// Transformer Engine's delayed and current per-tensor scaling).
	KindTensor Kind = iota
	// KindRow: one scale per row (torchao "rowwise", per-token activations).
	KindRow
	// KindCol: one scale per column (per-channel weights).
	KindCol
	// KindTile: 1×N tiles along each row; DeepSeek-V3 quantizes activations
	// in 1×128 tiles.
	KindTile
	// KindBlock: R×C blocks; DeepSeek-V3 quantizes weights in 128×128 blocks.
	KindBlock
	// KindMX: OCP Microscaling, 32 consecutive elements of a row share an
	// E8M0 (power-of-two) scale.
	KindMX
	// KindNVFP4: NVIDIA's NVFP4, 16 consecutive elements of a row (or a
	// 16×16 block, for weights) share an E4M3 scale, and one float32 scale
	// covers the tensor.
	KindNVFP4
	// KindColTile: N×1 tiles down each column, KindTile's transpose.
	// DeepSeek-V3 (arXiv 2412.19437) quantizes activations in 1×128 tiles
	// in the forward pass; for the backward pass (Wgrad, which contracts
	// over tokens) "these activations will be converted from an 1x128
	// quantization tile to an 128x1 tile" (§3.3.3, Low-Precision
	// Activation, with power-of-two scales), the matrix being "read out,
	// dequantized, transposed, re-quantized into 128x1 tiles" (§3.5.2,
	// Support for Transposed GEMM Operations). Tile128x1 on X gives the
	// codes and scales of Tile1x128 on Xᵀ, transposed back.
	KindColTile
)

// Block sizes fixed by the recipes.
const (
	// DefaultTile is DeepSeek-V3's activation tile width (1×128).
	DefaultTile = 128
	// DefaultBlock is DeepSeek-V3's weight block side (128×128).
	DefaultBlock = 128
	// MXBlockSize is the OCP MX block size k (32 elements along a row).
	MXBlockSize = 32
	// NVFP4BlockSize is the NVFP4 block size (16 elements along a row).
	NVFP4BlockSize = 16
	// MaxBlockSide is the largest block side (BlockRows or BlockCols)
	// Validate and ParseGranularity accept (2^20). Larger sides would only
	// make one partial block, and sides near math.MaxInt overflow the block
	// grid arithmetic.
	MaxBlockSide = 1 << 20
)

// Granularity says which elements share a scale. The zero value is
// per-tensor. BlockRows and BlockCols give the block shape of KindTile
// (BlockRows must be 0 or 1), KindColTile (BlockCols must be 0 or 1) and
// KindBlock; zero means the DeepSeek-V3 default (1×128 and 128×1 tiles,
// 128×128 blocks). For KindMX and KindNVFP4 they must
// be zero or the recipe's own size (1×32; 1×16, or 16×16 for NVFP4 weights as
// in Transformer Engine's NVFP4 recipe); for KindTensor, KindRow and
// KindCol they must be zero.
//
// Blocks are laid out from the top-left corner; where the tensor's sides are
// not multiples of the block, the last blocks of a row or column are
// partial, which gives the same scales as zero padding would.
type Granularity struct {
	Kind      Kind
	BlockRows int
	BlockCols int
}

// The granularities with their recipes' default block shapes.
var (
	PerTensor = Granularity{Kind: KindTensor}
	PerRow    = Granularity{Kind: KindRow}
	PerCol    = Granularity{Kind: KindCol}
	Tile1x128 = Granularity{Kind: KindTile, BlockRows: 1, BlockCols: DefaultTile}
	Block128  = Granularity{Kind: KindBlock, BlockRows: DefaultBlock, BlockCols: DefaultBlock}
	MX        = Granularity{Kind: KindMX, BlockRows: 1, BlockCols: MXBlockSize}
	NVFP4     = Granularity{Kind: KindNVFP4, BlockRows: 1, BlockCols: NVFP4BlockSize}
	Tile128x1 = Granularity{Kind: KindColTile, BlockRows: DefaultTile, BlockCols: 1}
	// NVFP4Block16 is NVFP4 with 16×16 blocks, how Transformer Engine's
	// NVFP4 recipe quantizes weights: a square block is the same block in W
	// and Wᵀ, so one quantization serves the forward and backward products.
	NVFP4Block16 = Granularity{Kind: KindNVFP4, BlockRows: NVFP4BlockSize, BlockCols: NVFP4BlockSize}
)

// Tile returns the 1×n tile granularity.
func Tile(n int) Granularity { return Granularity{Kind: KindTile, BlockRows: 1, BlockCols: n} }

// ColTile returns the n×1 tile granularity (n consecutive elements of a
// column share a scale).
func ColTile(n int) Granularity { return Granularity{Kind: KindColTile, BlockRows: n, BlockCols: 1} }

// Block returns the rows×cols block granularity.
func Block(rows, cols int) Granularity {
	return Granularity{Kind: KindBlock, BlockRows: rows, BlockCols: cols}
}

// Granularities returns the standard granularities, one per kind with its
// recipe's default block shape, in Kind order, which is the order the CLI
// lists them: tensor, row, col, tile1x128, block128, mx, nvfp4, tile128x1.
func Granularities() []Granularity {
	out := make([]Granularity, len(granularitySpecs))
	for k := range granularitySpecs {
		out[k] = defaultGranularity(Kind(k))
	}
	return out
}

// Validate reports whether g is a known kind with a usable block shape.
func (g Granularity) Validate() error {
	if g.BlockRows > MaxBlockSide || g.BlockCols > MaxBlockSide {
		return fmt.Errorf("%w: block %d×%d has a side above %d", ErrGranularity, g.BlockRows, g.BlockCols, MaxBlockSide)
	}
	s, ok := g.spec()
	if !ok {
		return fmt.Errorf("%w: unknown kind %d", ErrGranularity, g.Kind)
	}
	bad := func(v int, sd side) bool {
		if !s.takesShape {
			return v != 0
		}
		if sd.free {
			return v < 0
		}
		return v != 0 && v != sd.def && (sd.alt == 0 || v != sd.alt)
	}
	if bad(g.BlockRows, s.rows) || bad(g.BlockCols, s.cols) {
		return fmt.Errorf("%w: %s %s", ErrGranularity, g, s.shapeHelp)
	}
	return nil
}

// BlockShape returns the shape of the blocks that share one scale in a
// rows×cols tensor (the whole tensor for KindTensor, 1×cols for KindRow,
// rows×1 for KindCol, and so on).
func (g Granularity) BlockShape(rows, cols int) (blockRows, blockCols int, err error) {
	if err := g.Validate(); err != nil {
		return 0, 0, err
	}
	if err := checkDims(rows, cols); err != nil {
		return 0, 0, err
	}
	s, _ := g.spec()
	br, bc := g.shapeOr()
	if s.rows.whole {
		br = rows
	}
	if s.cols.whole {
		bc = cols
	}
	return br, bc, nil
}

// String returns the name ParseGranularity reads back: tensor, row, col,
// tile1xN, blockN (square) or blockRxC, mx, nvfp4, tileNx1. (ColTile(1)'s
// "tile1x1" reads back as Tile(1), which has the same 1×1 blocks.)
func (g Granularity) String() string {
	s, ok := g.spec()
	if !ok {
		return fmt.Sprintf("Granularity(%d)", g.Kind)
	}
	if s.format != nil {
		return s.format(g.shapeOr())
	}
	return s.name
}

// ParseGranularity parses a granularity name, case-insensitively: "tensor",
// "row", "col" (or "column"), "tile1xN" (e.g. "tile1x128"; "tile" alone is
// 1×128), "blockN" or "blockRxC" ("block" alone is 128×128), "mx" (also
// "mx32"), "nvfp4" and "tileNx1" (e.g. "tile128x1"). An unknown name gives
// ErrGranularity listing the known ones.
func ParseGranularity(s string) (Granularity, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for k := range granularitySpecs {
		spec := &granularitySpecs[k]
		if name == spec.name || slices.Contains(spec.aliases, name) {
			return defaultGranularity(Kind(k)), nil
		}
	}
	syntax := make([]string, len(granularitySpecs))
	for k, spec := range granularitySpecs {
		syntax[k] = spec.syntax
	}
	unknown := fmt.Errorf("%w: unknown granularity %q (%s)", ErrGranularity, s, strings.Join(syntax, ", "))
	for _, spec := range granularitySpecs {
		if spec.parse == nil {
			continue
		}
		if rest, ok := strings.CutPrefix(name, spec.prefix); ok {
			if g, ok := spec.parse(rest); ok {
				return g, nil
			}
			return Granularity{}, unknown
		}
	}
	return Granularity{}, unknown
}

// defaultGranularity returns kind k with its recipe's default block shape
// (PerTensor, ..., NVFP4).
func defaultGranularity(k Kind) Granularity {
	g := Granularity{Kind: k}
	if g.TakesBlockShape() {
		g.BlockRows, g.BlockCols = g.shapeOr()
	}
	return g
}

// parseSize reads a block side: a decimal integer in 1..MaxBlockSide.
func parseSize(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxBlockSide || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("%w: block size %q", ErrGranularity, s)
	}
	return n, nil
}

// MarshalText implements encoding.TextMarshaler with String's name, so a
// Granularity appears in JSON as "tile1x128".
func (g Granularity) MarshalText() ([]byte, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return []byte(g.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseGranularity.
func (g *Granularity) UnmarshalText(b []byte) error {
	v, err := ParseGranularity(string(b))
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// layout is a granularity resolved for one tensor shape: the block shape
// and the grid of blocks (ceil division, so edge blocks may be partial).
type layout struct {
	rows, cols int
	br, bc     int
	gr, gc     int
}

func newLayout(g Granularity, rows, cols int) (layout, error) {
	br, bc, err := g.BlockShape(rows, cols)
	if err != nil {
		return layout{}, err
	}
	return layout{rows: rows, cols: cols, br: br, bc: bc, gr: (rows + br - 1) / br, gc: (cols + bc - 1) / bc}, nil
}

// blocks returns the number of blocks, that is of scales.
func (l layout) blocks() int { return l.gr * l.gc }

// blockOf returns the index of the block holding element (i, j).
func (l layout) blockOf(i, j int) int { return (i/l.br)*l.gc + j/l.bc }
