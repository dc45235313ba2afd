// Command gen writes the generated files of package internal/tier (the
// RFC 7541 and RFC 9204 static tables and the gRPC well-known metadata,
// with the perfect hashes computed here so that nothing is hashed at
// process start),
// of package staticdata (the well-known key constants) and of package
// internal/huffdata (the Huffman tables). The hashes and table layouts it
// shares with those packages are defined once, in internal/tabledef; the
// pair hashes over the two static tables are written out as functions.
//
// It reads only the data committed under gen/data. Run it through
// `go generate ./staticdata` (or `go generate ./...`).
//
// Usage:
//
//	go run ./gen -data gen/data -root .
//
// writes root/internal/tier/static_gen.go, root/staticdata/keys_gen.go
// and root/internal/huffdata/huffman_gen.go.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dataDir := flag.String("data", "gen/data", "folder holding the source data files")
	outDir := flag.String("root", ".", "module root to write the generated Go files under")
	flag.Parse()
	if err := run(*dataDir, *outDir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dataDir, outDir string) error {
	table, err := readStaticTable(filepath.Join(dataDir, "static_table.txt"), 61)
	if err != nil {
		return err
	}
	qtable, err := readStaticTable(filepath.Join(dataDir, "qpack_static_table.txt"), 99)
	if err != nil {
		return err
	}
	grpc, err := readGRPCMetadata(filepath.Join(dataDir, "grpc_metadata.txt"))
	if err != nil {
		return err
	}
	code, err := readHuffmanCode(filepath.Join(dataDir, "huffman_code.txt"))
	if err != nil {
		return err
	}
	atoms := buildAtoms(table, grpc, qtable)
	static, err := emitStatic(atoms, table, qtable)
	if err != nil {
		return err
	}
	keys, err := emitKeys(atoms)
	if err != nil {
		return err
	}
	huff, err := emitHuffman(code)
	if err != nil {
		return err
	}
	files := map[string][]byte{
		filepath.Join("internal", "tier", "static_gen.go"):      static,
		filepath.Join("staticdata", "keys_gen.go"):              keys,
		filepath.Join("internal", "huffdata", "huffman_gen.go"): huff,
	}
	for name, src := range files {
		path := filepath.Join(outDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			return err
		}
	}
	return nil
}
