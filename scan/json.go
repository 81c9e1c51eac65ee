package scan

import (
	"encoding/json"
	"math"
	"strconv"
)

// jnum is a float64 that writes ±Inf and NaN as the strings "+Inf", "-Inf"
// and "NaN" (fp8.Number's convention), which JSON numbers cannot hold.
type jnum float64

func (n jnum) MarshalJSON() ([]byte, error) {
	v := float64(n)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

func (n *jnum) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		v, err := strconv.ParseFloat(s, 64)
		*n = jnum(v)
		return err
	}
	var v float64
	err := json.Unmarshal(b, &v)
	*n = jnum(v)
	return err
}

// resultJSON is Result with its possibly non-finite fields as jnum.
type resultJSON struct {
	plainResult
	ScaleInvMin    jnum `json:"scale_inv_min"`
	ScaleInvMax    jnum `json:"scale_inv_max"`
	SQNR           jnum `json:"sqnr_db"`
	WorstRowSQNR   jnum `json:"worst_row_sqnr_db"`
	WorstBlockSQNR jnum `json:"worst_block_sqnr_db"`
}

type plainResult Result

// MarshalJSON writes the SQNRs and scale_inv bounds that are ±Inf (an
// exact tensor) or NaN (an all-zero one) as strings.
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultJSON{plainResult(r), jnum(r.ScaleInvMin), jnum(r.ScaleInvMax), jnum(r.SQNR), jnum(r.WorstRowSQNR), jnum(r.WorstBlockSQNR)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Result) UnmarshalJSON(b []byte) error {
	var j resultJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Result(j.plainResult)
	r.ScaleInvMin, r.ScaleInvMax, r.SQNR = float64(j.ScaleInvMin), float64(j.ScaleInvMax), float64(j.SQNR)
	r.WorstRowSQNR, r.WorstBlockSQNR = float64(j.WorstRowSQNR), float64(j.WorstBlockSQNR)
	return nil
}
