package scaling

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind names a family of granularities: which elements share one scale.
type Kind uint8

// The granularities in use today.
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
	// KindNVFP4: NVIDIA's NVFP4, 16 consecutive elements of a row share an
	// E4M3 scale, and one float32 scale covers the tensor.
	KindNVFP4
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
// (BlockRows must be 0 or 1) and KindBlock; zero means the DeepSeek-V3
// default (1×128 tiles, 128×128 blocks). For KindMX and KindNVFP4 they must
// be zero or the recipe's own size (1×32, 1×16); for KindTensor, KindRow and
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
)

// Tile returns the 1×n tile granularity.
func Tile(n int) Granularity { return Granularity{Kind: KindTile, BlockRows: 1, BlockCols: n} }

// Block returns the rows×cols block granularity.
func Block(rows, cols int) Granularity {
	return Granularity{Kind: KindBlock, BlockRows: rows, BlockCols: cols}
}

// Granularities returns the seven standard granularities in the order the
// CLI lists them: tensor, row, col, tile1x128, block128, mx, nvfp4.
func Granularities() []Granularity {
	return []Granularity{PerTensor, PerRow, PerCol, Tile1x128, Block128, MX, NVFP4}
}

// Validate reports whether g is a known kind with a usable block shape.
func (g Granularity) Validate() error {
	bad := func(msg string) error {
		return fmt.Errorf("%w: %s %s", ErrGranularity, g, msg)
	}
	if g.BlockRows > MaxBlockSide || g.BlockCols > MaxBlockSide {
		return fmt.Errorf("%w: block %d×%d has a side above %d", ErrGranularity, g.BlockRows, g.BlockCols, MaxBlockSide)
	}
	switch g.Kind {
	case KindTensor, KindRow, KindCol:
		if g.BlockRows != 0 || g.BlockCols != 0 {
			return bad("takes no block shape")
		}
	case KindTile:
		if g.BlockRows != 0 && g.BlockRows != 1 || g.BlockCols < 0 {
			return bad("needs a 1×N tile with N > 0")
		}
	case KindBlock:
		if g.BlockRows < 0 || g.BlockCols < 0 {
			return bad("needs a positive block shape")
		}
	case KindMX:
		if g.BlockRows != 0 && g.BlockRows != 1 || g.BlockCols != 0 && g.BlockCols != MXBlockSize {
			return bad("blocks are 1×32 (OCP MX v1.0)")
		}
	case KindNVFP4:
		if g.BlockRows != 0 && g.BlockRows != 1 || g.BlockCols != 0 && g.BlockCols != NVFP4BlockSize {
			return bad("blocks are 1×16")
		}
	default:
		return fmt.Errorf("%w: unknown kind %d", ErrGranularity, g.Kind)
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
	or := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	switch g.Kind {
	case KindTensor:
		return rows, cols, nil
	case KindRow:
		return 1, cols, nil
	case KindCol:
		return rows, 1, nil
	case KindTile:
		return 1, or(g.BlockCols, DefaultTile), nil
	case KindBlock:
		return or(g.BlockRows, DefaultBlock), or(g.BlockCols, DefaultBlock), nil
	case KindMX:
		return 1, MXBlockSize, nil
	default: // KindNVFP4, the only kind left after Validate
		return 1, NVFP4BlockSize, nil
	}
}

// String returns the name ParseGranularity reads back: tensor, row, col,
// tile1xN, blockN (square) or blockRxC, mx, nvfp4.
func (g Granularity) String() string {
	switch g.Kind {
	case KindTensor:
		return "tensor"
	case KindRow:
		return "row"
	case KindCol:
		return "col"
	case KindTile:
		n := g.BlockCols
		if n == 0 {
			n = DefaultTile
		}
		return "tile1x" + strconv.Itoa(n)
	case KindBlock:
		r, c := g.BlockRows, g.BlockCols
		if r == 0 {
			r = DefaultBlock
		}
		if c == 0 {
			c = DefaultBlock
		}
		if r == c {
			return "block" + strconv.Itoa(r)
		}
		return fmt.Sprintf("block%dx%d", r, c)
	case KindMX:
		return "mx"
	case KindNVFP4:
		return "nvfp4"
	}
	return fmt.Sprintf("Granularity(%d)", g.Kind)
}

// ParseGranularity parses a granularity name, case-insensitively: "tensor",
// "row", "col" (or "column"), "tile1xN" (e.g. "tile1x128"; "tile" alone is
// 1×128), "blockN" or "blockRxC" ("block" alone is 128×128), "mx" (also
// "mx32") and "nvfp4". An unknown name gives ErrGranularity listing the
// known ones.
func ParseGranularity(s string) (Granularity, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	switch name {
	case "tensor", "tensorwise", "per-tensor":
		return PerTensor, nil
	case "row", "rowwise", "per-row":
		return PerRow, nil
	case "col", "column", "colwise", "per-col", "per-column":
		return PerCol, nil
	case "tile":
		return Tile1x128, nil
	case "block":
		return Block128, nil
	case "mx", "mx32":
		return MX, nil
	case "nvfp4":
		return NVFP4, nil
	}
	unknown := fmt.Errorf("%w: unknown granularity %q (tensor, row, col, tile1xN, blockN, blockRxC, mx, nvfp4)", ErrGranularity, s)
	if rest, ok := strings.CutPrefix(name, "tile1x"); ok {
		n, err := parseSize(rest)
		if err != nil {
			return Granularity{}, unknown
		}
		return Tile(n), nil
	}
	if rest, ok := strings.CutPrefix(name, "block"); ok {
		rs, cs, found := strings.Cut(rest, "x")
		r, err := parseSize(rs)
		if err != nil {
			return Granularity{}, unknown
		}
		c := r
		if found {
			if c, err = parseSize(cs); err != nil {
				return Granularity{}, unknown
			}
		}
		return Block(r, c), nil
	}
	return Granularity{}, unknown
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
