// Command train-gpt trains the training lab's classroom GPT (2 blocks of
// width 32, byte tokens, the Go distribution's own source as text) under a
// few recipes from the same weights and data order, and prints their
// validation losses side by side.
//
//	go run ./examples/train-gpt [-steps 200] [-recipes fp32,tensorwise,nvfp4]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/train"
)

func main() {
	steps := flag.Int("steps", 200, "training steps per recipe")
	names := flag.String("recipes", "fp32,tensorwise,nvfp4", "comma-separated recipe names ("+strings.Join(train.RecipeNames(), ", ")+")")
	flag.Parse()
	if _, err := run(os.Stdout, strings.Split(*names, ","), *steps); err != nil {
		fmt.Fprintln(os.Stderr, "train-gpt:", err)
		os.Exit(1)
	}
}

// run trains each recipe with seed 1 and prints a table of validation losses.
func run(w io.Writer, names []string, steps int) ([]*train.Result, error) {
	data, err := train.GoSourceCorpus(cmdline.GoRoot(), 2<<20)
	if err != nil {
		return nil, err
	}
	cfg := train.Classroom()
	cfg.EvalEvery = max(steps/4, 1)
	var results []*train.Result
	for _, name := range names {
		r, err := train.RecipeByName(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		res, err := train.Run(cfg, r, 1, steps, data)
		if err != nil {
			return nil, err
		}
		results = append(results, res)
	}
	fmt.Fprintf(w, "classroom GPT (%d parameters), %d steps, validation loss (nats/byte)\n", cfg.NumParams(), steps)
	fmt.Fprintf(w, "%-6s", "step")
	for _, res := range results {
		fmt.Fprintf(w, " %12s", res.Recipe.Name)
	}
	fmt.Fprintln(w)
	for i, p := range results[0].Val {
		fmt.Fprintf(w, "%-6d", p.Step)
		for _, res := range results {
			fmt.Fprintf(w, " %12.4f", res.Val[i].Loss)
		}
		fmt.Fprintln(w)
	}
	base := results[0].FinalVal()
	fmt.Fprintf(w, "%-6s", "gap")
	for _, res := range results {
		fmt.Fprintf(w, " %+11.2f%%", 100*(res.FinalVal()-base)/base)
	}
	fmt.Fprintf(w, "\n(gap: final validation loss relative to %s)\n", results[0].Recipe.Name)
	return results, nil
}
