package jsapi

// The names of the API's functions. CoreFunctions and SceneFunctions are in
// every module; LiveFunctions where a live scene is registered. Register
// installs exactly these (a Node test checks it).
var (
	CoreFunctions  = []string{"decode", "describe", "dither", "encode", "encodeInto", "explain", "formats", "hadamard", "info", "quantize", "randomBits", "table"}
	SceneFunctions = []string{"extractTensor", "renderScene", "scanFile", "sceneInfo", "scenes"}
	LiveFunctions  = []string{"currentScene", "frameCount", "getParam", "loadTensor", "setParam", "setScene"}
)
