// Package train is fp8lab's training lab: a byte-level GPT written out
// layer by layer, as llm.c writes GPT-2, trained under FP8 recipes whose
// every quantization is done by package scaling.
//
// # The model
//
// Tokens are bytes (a vocabulary of 256). Token and position embeddings
// feed pre-norm blocks (LayerNorm, causal multi-head attention, residual,
// LayerNorm, a GELU MLP of width 4C, residual), then a final LayerNorm and
// an output head, tied to the token embedding or separate (Config.TiedHead).
// Each layer has one forward and one backward function with its shapes in
// its doc comment (layers.go); the functions are generic over float32 and
// float64 so the gradient checks run them in float64 against finite
// differences, while the model runs them in float32.
//
// # Recipes
//
// Every linear layer computes three products, Y = X·W, dX = dY·Wᵀ and
// dW = Xᵀ·dY, and a Recipe says how each operand is rounded: float32, BF16,
// or an FP8 (or FP4) element format with a scaling granularity, current or
// delayed scaling, stochastic rounding of gradients, a Hadamard rotation of
// the weight-gradient operands, and emulated fast accumulation. Operands are
// quantized with scaling.QuantizeInto (or a scaling.DelayedScaler),
// dequantized with DequantizeInto into memory reused every step, and
// multiplied in float32 with gonum's Sgemm; see Recipe. An operand stored
// with K as its rows is quantized where it lies, with the granularity that
// makes the same blocks there (row scales become column scales), so the
// codes are those of its K-major transpose without transposing it.
//
// # Optimizer and data
//
// AdamW with linear warmup, cosine decay and clipping by global norm; float32
// optimizer state and float32 or BF16 master weights (round to nearest or
// stochastic, from Philox streams). The corpus is the Go distribution's own
// source or any text file; batches are drawn deterministically from a seed.
//
// The package imports only the standard library, gonum's BLAS and fp8lab's
// core packages, and builds for GOOS=js.
package train
