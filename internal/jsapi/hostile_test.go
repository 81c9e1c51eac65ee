//go:build !js

package jsapi_test

// nodePeakRSS bounds the resident memory of the Node process that runs every
// case, hostile ones included: an input that made the module allocate without
// bound would pass its own case and fail here.
const nodePeakRSS = 1 << 30 // bytes

// hostileJSCases are issue 12's hostile calls through the JS API: absurd
// sizes, file paths where bytes belong, huge buffers. Each must throw a clear
// error, named after the function, without growing the module's memory.
func hostileJSCases() []jsCase {
	return []jsCase{
		{name: "hostile: renderScene 1e9 x 1e9", code: `return api.renderScene("explorer", 1e9, 1e9);`, wantErr: "fp8lab.renderScene"},
		{name: "hostile: renderScene 2^40 wide", code: `return api.renderScene("explorer", 2**40, 8);`, wantErr: "fp8lab.renderScene"},
		{name: "hostile: quantize rows x cols beyond the data", code: `return api.quantize(new Float32Array(4), 1e9, 1e9, "E4M3FN", "tensor");`, wantErr: "fp8lab.quantize"},
		{name: "hostile: quantize a block side near 2^53", code: `return api.quantize(new Float32Array(4096), 64, 64, "E4M3FN", "block9007199254740991x1");`, wantErr: "fp8lab.quantize"},
		{name: "hostile: sceneInfo with a file path", code: `return api.sceneInfo("window", {file: "/dev/zero"});`, wantErr: "loadTensor"},
		{name: "hostile: loadTensor of 64 MB of zero bytes", code: `api.setScene("window"); return api.loadTensor(new Uint8Array(64 << 20), "zeros.csv");`, wantErr: "fp8lab.loadTensor"},
		{name: "hostile: loadTensor of a .npy header promising 2^40 values", code: `
			const dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1048576, 1048576), }";
			const pad = 64 - (10 + dict.length + 1) % 64;
			const text = dict + " ".repeat(pad) + "\n";
			const b = new Uint8Array(10 + text.length);
			b.set([0x93, 78, 85, 77, 80, 89, 1, 0, text.length & 255, text.length >> 8]);
			b.set(new TextEncoder().encode(text), 10);
			api.setScene("window");
			return api.loadTensor(b, "huge.npy");`, wantErr: "fp8lab.loadTensor"},
		{name: "hostile: encode with a BigInt", code: `return api.encode("E4M3FN", 1n);`, wantErr: "BigInt"},
	}
}
