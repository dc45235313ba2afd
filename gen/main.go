// Command gen writes the generated files of package staticdata (the RFC 7541
// static table and the gRPC well-known metadata, together with lookups
// computed here so that nothing is hashed at process start) and of package
// internal/huffdata (the Huffman tables).
//
// It reads only the data committed under gen/data. Run it through
// `go generate ./staticdata` (or `go generate ./...`).
//
// Usage:
//
//	go run ./gen -data gen/data -root .
//
// writes root/staticdata/static_gen.go and
// root/internal/huffdata/huffman_gen.go.
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
	table, err := readStaticTable(filepath.Join(dataDir, "static_table.txt"))
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
	atoms := buildAtoms(table, grpc)
	static, err := emitStatic(atoms, table)
	if err != nil {
		return err
	}
	huff, err := emitHuffman(code)
	if err != nil {
		return err
	}
	files := map[string][]byte{
		filepath.Join("staticdata", "static_gen.go"):            static,
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
