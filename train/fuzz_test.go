package train

import (
	"bytes"
	"testing"
)

// FuzzParseRecipe: any input either fails with an error or gives a recipe
// that passes Check and survives a JSON round trip unchanged.
func FuzzParseRecipe(f *testing.F) {
	for _, name := range RecipeNames() {
		r, _ := RecipeByName(name)
		b, _ := r.MarshalIndented()
		f.Add(b)
	}
	f.Add([]byte(`{"name":"x","weight_grad":{"hadamard":16}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRecipe(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := r.Check(); err != nil {
			t.Fatalf("accepted a recipe Check refuses: %v", err)
		}
		b, err := r.MarshalIndented()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseRecipe(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("round trip: %v\n%s", err, b)
		}
		b2, _ := back.MarshalIndented()
		if !bytes.Equal(b, b2) {
			t.Fatalf("round trip changed the recipe:\n%s\n%s", b, b2)
		}
	})
}
