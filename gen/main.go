// Command gen writes the generated files of package staticdata: the RFC 7541
// static table, the Huffman tables and the gRPC well-known metadata, together
// with lookups computed here so that nothing is hashed at process start.
//
// It reads only the data committed under gen/data. Run it through
// `go generate ./staticdata` (or `go generate ./...`).
//
// Usage:
//
//	go run ./gen -data gen/data -out staticdata
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dataDir := flag.String("data", "gen/data", "folder holding the source data files")
	outDir := flag.String("out", "staticdata", "folder to write the generated Go files into")
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
		"static_gen.go":  static,
		"huffman_gen.go": huff,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(outDir, name), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}
