package audit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"reflect"
	"strings"
	"testing"

	compat "github.com/metapack/metapack/compat/hpack"
	"github.com/metapack/metapack/grpcmeta"
	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// carelessValues returns the arguments a careless caller might pass for a
// parameter of type t: its zero value (nil for pointers, slices, maps and
// functions), and extremes for numbers.
func carelessValues(t reflect.Type) []reflect.Value {
	vals := []reflect.Value{reflect.Zero(t)}
	add := func(x any) { vals = append(vals, reflect.ValueOf(x).Convert(t)) }
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		add(-1)
		add(int64(math.MinInt64))
		add(int64(math.MaxInt64))
		add(int64(1 << 40))
	case reflect.Int32:
		add(-1)
		add(math.MinInt32)
		add(math.MaxInt32)
	case reflect.Uint32:
		add(uint32(math.MaxUint32))
		add(uint32(1 << 31))
	case reflect.Uint64, reflect.Uint:
		add(uint64(math.MaxUint64))
	case reflect.Uint8:
		add(uint8(255))
	case reflect.Bool:
		add(true)
	case reflect.String:
		add(strings.Repeat("\xff", 3))
	case reflect.Slice:
		if t.Elem() == reflect.TypeFor[byte]() {
			add([]byte{0xff, 0xff, 0xff, 0xff})
		}
	}
	return vals
}

// carelessReceivers make the values TestCarelessCalls calls methods on: the
// constructors' and the zero values.
var carelessReceivers = map[string]func() any{
	"hpack.Decoder":                  func() any { return hpack.NewDecoder(4096) },
	"hpack.Encoder":                  func() any { return hpack.NewEncoder(4096) },
	"compat.Decoder":                 func() any { return compat.NewDecoder(4096, nil) },
	"compat.Encoder":                 func() any { return compat.NewEncoder(nil) },
	"mdelem.Batch":                   func() any { return mdelem.NewBatch(4, 64) },
	"intern.Table":                   func() any { return intern.New(intern.Limits{MaxEntries: 8, MaxBytes: 256, MaxLen: 32}) },
	"zero hpack.Decoder":             func() any { return new(hpack.Decoder) },
	"zero hpack.Encoder":             func() any { return new(hpack.Encoder) },
	"zero compat.Decoder":            func() any { return new(compat.Decoder) },
	"zero compat.Encoder":            func() any { return new(compat.Encoder) },
	"zero mdelem.Batch":              func() any { return new(mdelem.Batch) },
	"zero intern.Table":              func() any { return new(intern.Table) },
	"zero mdelem.Str":                func() any { return new(mdelem.Str) },
	"bad staticdata.KeyID":           func() any { k := staticdata.KeyID(255); return &k },
	"zero staticdata.Atom":           func() any { return new(staticdata.Atom) },
	"zero mdelem.Field":              func() any { return new(mdelem.Field) },
	"zero intern.Handle":             func() any { return new(intern.Handle) },
	"zero grpcmeta.FieldError":       func() any { return new(grpcmeta.FieldError) },
	"zero grpcmeta.ContentType":      func() any { return new(grpcmeta.ContentType) },
	"bad grpcmeta.ContentType":       func() any { c := grpcmeta.ContentType(255); return &c },
	"zero grpcmeta.Value":            func() any { return new(grpcmeta.Value) },
	"full grpcmeta.Value":            func() any { v := grpcmeta.ValueOf(mdelem.StrOf(mdelem.BorrowString("application/grpc"))); return &v },
	"zero hpack.DecodingError":       func() any { return new(hpack.DecodingError) },
	"headerblock.Reader":             func() any { return headerblock.NewReader(nil) },
	"headerblock.Writer":             func() any { return headerblock.NewWriter(nil) },
	"zero headerblock.Reader":        func() any { return new(headerblock.Reader) },
	"zero headerblock.Writer":        func() any { return new(headerblock.Writer) },
	"zero headerblock.FieldError":    func() any { return new(headerblock.FieldError) },
	"zero headerblock.ListSizeError": func() any { return new(headerblock.ListSizeError) },
}

// carelessReceiverNames lists carelessReceivers' names.
var carelessReceiverNames = func() []string {
	var names []string
	for n := range carelessReceivers {
		names = append(names, n)
	}
	return names
}()

// carelessFuncs are the public packages' exported functions, generic ones
// at one instance each or two.
var carelessFuncs = map[string]any{
	"hpack.NewDecoder":                      hpack.NewDecoder,
	"hpack.NewEncoder":                      hpack.NewEncoder,
	"hpack.IsStreamError":                   hpack.IsStreamError,
	"hpack.AppendHuffmanDecode":             hpack.AppendHuffmanDecode,
	"hpack.AppendHuffmanString":             hpack.AppendHuffmanString,
	"compat.NewDecoder":                     compat.NewDecoder,
	"compat.NewEncoder":                     compat.NewEncoder,
	"compat.AppendFromBatch":                compat.AppendFromBatch,
	"compat.AppendToBatch":                  compat.AppendToBatch,
	"compat.AppendHuffmanString":            compat.AppendHuffmanString,
	"compat.HuffmanDecode":                  compat.HuffmanDecode,
	"compat.HuffmanDecodeToString":          compat.HuffmanDecodeToString,
	"compat.HuffmanEncodeLength":            compat.HuffmanEncodeLength,
	"grpcmeta.ValidateRequest":              grpcmeta.ValidateRequest,
	"grpcmeta.ParseTimeout[string]":         grpcmeta.ParseTimeout[string],
	"grpcmeta.ParseTimeout[[]byte]":         grpcmeta.ParseTimeout[[]byte],
	"grpcmeta.IsBinary[string]":             grpcmeta.IsBinary[string],
	"grpcmeta.IsBinary[[]byte]":             grpcmeta.IsBinary[[]byte],
	"grpcmeta.DecodeBinary":                 grpcmeta.DecodeBinary,
	"grpcmeta.AppendBinary":                 grpcmeta.AppendBinary,
	"grpcmeta.AppendMessage[string]":        grpcmeta.AppendMessage[string],
	"grpcmeta.AppendMessage[[]byte]":        grpcmeta.AppendMessage[[]byte],
	"grpcmeta.DecodeMessage[string]":        grpcmeta.DecodeMessage[string],
	"grpcmeta.DecodeMessage[[]byte]":        grpcmeta.DecodeMessage[[]byte],
	"grpcmeta.AppendStatusTrailers[string]": grpcmeta.AppendStatusTrailers[string],
	"grpcmeta.AppendStatusTrailers[[]byte]": grpcmeta.AppendStatusTrailers[[]byte],
	"grpcmeta.AppendTimeout":                grpcmeta.AppendTimeout,
	"grpcmeta.ValidateMetadata":             grpcmeta.ValidateMetadata,
	"grpcmeta.ValidateResponse":             grpcmeta.ValidateResponse,
	"grpcmeta.ValueOf":                      grpcmeta.ValueOf,
	"intern.New":                            intern.New,
	"intern.Make[string]":                   intern.Make[string],
	"intern.Make[[]byte]":                   intern.Make[[]byte],
	"intern.Lookup[string]":                 intern.Lookup[string],
	"intern.Lookup[[]byte]":                 intern.Lookup[[]byte],
	"mdelem.NewBatch":                       mdelem.NewBatch,
	"mdelem.BorrowString":                   mdelem.BorrowString,
	"mdelem.StrOf[Borrowed]":                mdelem.StrOf[mdelem.Borrowed],
	"mdelem.StrOf[Owned]":                   mdelem.StrOf[mdelem.Owned],
	"mdelem.From[Borrowed, Borrowed]":       mdelem.From[mdelem.Borrowed, mdelem.Borrowed],
	"staticdata.Lookup[string]":             staticdata.Lookup[string],
	"staticdata.Lookup[[]byte]":             staticdata.Lookup[[]byte],
	"headerblock.NewReader":                 headerblock.NewReader,
	"headerblock.NewWriter":                 headerblock.NewWriter,
	"headerblock.WriteBlock":                headerblock.WriteBlock,
	"headerblock.CheckListSize":             headerblock.CheckListSize,
}

// TestCarelessCalls calls every exported method of the public packages'
// types on zero values and on values their constructors make, and every
// exported function, with each argument in turn set to a careless value
// (the others zero), and fails on any panic.
func TestCarelessCalls(t *testing.T) {
	calls := 0
	for name, mk := range carelessReceivers {
		typ := reflect.TypeOf(mk())
		for mi := range typ.NumMethod() {
			calls += tryCareless(t, name+"."+typ.Method(mi).Name, func() reflect.Value {
				return reflect.ValueOf(mk()).Method(mi) // a fresh receiver per call
			})
		}
	}
	for name, fn := range carelessFuncs {
		calls += tryCareless(t, name, func() reflect.Value { return reflect.ValueOf(fn) })
	}
	t.Logf("%d calls", calls)
}

// tryCareless calls the function fresh returns, once per careless value
// of each of its arguments, the others zero, and reports a panic as an
// error. It returns the number of calls.
func tryCareless(t *testing.T, label string, fresh func() reflect.Value) (calls int) {
	ft := fresh().Type()
	for arg := range max(ft.NumIn(), 1) {
		cases := []reflect.Value{{}} // one call of a function without arguments
		if ft.NumIn() > 0 {
			cases = carelessValues(ft.In(arg))
		}
		for ci, v := range cases {
			in := make([]reflect.Value, ft.NumIn())
			for j := range in {
				in[j] = reflect.Zero(ft.In(j))
			}
			if len(in) > 0 {
				in[arg] = v
			}
			fn := fresh()
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s, argument %d, case %d: panic: %v", label, arg, ci, r)
					}
				}()
				if ft.IsVariadic() {
					fn.CallSlice(in)
				} else {
					fn.Call(in)
				}
			}()
			calls++
		}
	}
	return calls
}

// carelessPackages are the public packages TestCarelessCalls covers, by
// the prefix its receivers' names use.
var carelessPackages = map[string]string{
	"hpack": "hpack", "compat/hpack": "compat", "mdelem": "mdelem",
	"intern": "intern", "grpcmeta": "grpcmeta", "staticdata": "staticdata",
	"headerblock": "headerblock",
}

// hasFunc reports whether carelessFuncs has name, at some instance.
func hasFunc(name string) bool {
	for k := range carelessFuncs {
		if k == name || strings.HasPrefix(k, name+"[") {
			return true
		}
	}
	return false
}

// TestCarelessCallsCoverEveryType parses the public packages and checks
// that TestCarelessCalls has a receiver for every exported type with
// exported methods and every exported function, so that a new one does
// not go untried.
func TestCarelessCallsCoverEveryType(t *testing.T) {
	listed := map[string]bool{}
	for _, name := range carelessReceiverNames {
		_, typ, _ := strings.Cut(name, " ") // "zero T", "bad T"
		if typ == "" {
			typ = name
		}
		listed[typ] = true
		listed[name] = true
	}
	fset := token.NewFileSet()
	for dir, prefix := range carelessPackages {
		for _, af := range nonTestFiles(t, fset, dir, parser.SkipObjectResolution) {
			for _, d := range af.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !fd.Name.IsExported() {
					continue
				}
				if fd.Recv == nil {
					if name := prefix + "." + fd.Name.Name; !hasFunc(name) {
						t.Errorf("%s is exported but not in carelessFuncs", name)
					}
					continue
				}
				rt := fd.Recv.List[0].Type
				if st, ok := rt.(*ast.StarExpr); ok {
					rt = st.X
				}
				id, ok := rt.(*ast.Ident)
				if !ok || !id.IsExported() {
					continue
				}
				if name := prefix + "." + id.Name; !listed[name] {
					t.Errorf("%s has exported methods (%s) but no receiver in TestCarelessCalls", name, fd.Name.Name)
					listed[name] = true
				}
			}
		}
	}
}
