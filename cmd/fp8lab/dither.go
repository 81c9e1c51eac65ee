package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/dither/quality"
	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/infile"
	"github.com/fp8lab/fp8lab/internal/outfile"
)

func init() {
	commands["dither"] = command{"quantize an image (the built-in mystery image by default) by rounding or dithering", runDither}
}

func runDither(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("dither", "--method nearest|stochastic|bayer2|bayer4|bayer8|floyd --levels K|--format F [--frames N] [--seed S] [-i in.png] -o out.png", stderr)
	methodName := fs.String("method", "stochastic", "nearest, stochastic, bayer2, bayer4, bayer8 or floyd")
	levels := fs.String("levels", "", "quantize onto K uniform levels in [0, 1] (default 2 when no --format)")
	formatName := fs.String("format", "", "quantize onto a format's grid instead, white mapped to its max")
	frames := fs.Int("frames", 1, "average N frames (stochastic frames differ; the average converges to the original)")
	seed := fs.Uint64("seed", 1, "Philox seed of the stochastic method")
	rbits := fs.Int("rbits", 0, "random bits per pixel, 1..32 (0: the package default)")
	in := fs.String("i", "", "input PNG or JPEG (default: the built-in mystery image)")
	size := fs.Int("size", 512, "size of the mystery image when no -i is given")
	out := fs.String("o", "", "output PNG (required; '-' for stdout)")
	maxPixels := fs.Int("max-pixels", dither.DefaultMaxLoadPixels, fmt.Sprintf("refuse -i images with more pixels than this (at most %d)", dither.MaxPixels))
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *out == "" {
		return cmdline.Usagef("dither needs -o out.png and no positional arguments")
	}
	if err := outfile.Check(*out); err != nil {
		return err
	}
	method, err := dither.ParseMethod(*methodName)
	if err != nil {
		return err
	}
	opts := dither.Options{Method: method, Frames: *frames, Seed: *seed, RandomBits: *rbits}
	switch {
	case *formatName != "" && *levels != "":
		return cmdline.Usagef("give --levels or --format, not both")
	case *formatName != "":
		if opts.Format, err = fp8.Lookup(*formatName); err != nil {
			return err
		}
	case *levels != "":
		if opts.Levels, err = dither.ParseLevels(*levels); err != nil {
			return err
		}
	default:
		opts.Levels = 2
	}
	var img *dither.Gray
	if *in != "" {
		file, _, err := infile.Open(*in, infile.Image)
		if err != nil {
			return err
		}
		img, err = dither.LoadGrayLimit(file, *maxPixels)
		file.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *in, err)
		}
	} else if img, err = dither.Mystery(*size, *size); err != nil {
		return err
	}
	res, err := dither.Dither(img, opts)
	if err != nil {
		return err
	}
	psnr, err := quality.PSNR(img, res)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := res.EncodePNG(&buf); err != nil {
		return err
	}
	if err := outfile.Write(*out, stdout, buf.Bytes()); err != nil {
		return err
	}
	if *out == outfile.Stdout {
		fmt.Fprintf(stderr, "wrote %dx%d, %s, %d frame(s): PSNR %.2f dB against the original\n",
			res.Width(), res.Height(), *methodName, max(opts.Frames, 1), psnr)
		return nil
	}
	fmt.Fprintf(stdout, "wrote %s (%dx%d, %s, %d frame(s)): PSNR %.2f dB against the original\n",
		*out, res.Width(), res.Height(), *methodName, max(opts.Frames, 1), psnr)
	return nil
}
