package jsapi

// The names of the API's functions. CoreFunctions, SceneFunctions and
// TrainingFunctions are in every module; LiveFunctions where a live scene is
// registered. Register installs exactly these (a Node test checks it).
var (
	CoreFunctions  = []string{"decode", "describe", "dither", "encode", "encodeInto", "explain", "formats", "hadamard", "info", "quantize", "randomBits", "table"}
	SceneFunctions = []string{"extractTensor", "renderScene", "scanFile", "sceneInfo", "scenes"}
	// TrainingFunctions train a live training run for a page's Web Worker.
	TrainingFunctions = []string{"trainingAdvance", "trainingStart"}
	LiveFunctions     = []string{"currentScene", "feedTraining", "frameCount", "getParam", "loadTensor", "setParam", "setScene",
		"trainElsewhere", "trainingPlan"}
)
