#!/usr/bin/env python3
"""Writes a random-weight Llama GGUF for end-to-end tests of `tpsview bench` (no weights can be
downloaded here; the text is garbage, the timing is real). Usage: make_gguf.py OUT [LAYERS HIDDEN FF]

The `output` rows of tokens 0-2 are zero so that end-of-sequence never wins: every request runs
to max_tokens. See ../shared/design/local-engine.md for the recipe."""
import sys

import numpy as np
import gguf


def main():
    out = sys.argv[1]
    layers, hidden, ff = (int(x) for x in (sys.argv[2:5] if len(sys.argv) >= 5 else (8, 768, 2048)))
    heads = max(1, hidden // 64)
    rng = np.random.default_rng(2026)
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{i:02X}>" for i in range(256)]
    pieces = ["the", "a", "token", "per", "second", "stream", "batch", "weight", "read", "step", "of",
              "one", "all", "GPU", "decode", "prefill", "is", "and", "to", "in"]
    words = []
    for i in range(1500):
        w = pieces[i % len(pieces)] + (str(i // len(pieces)) if i >= len(pieces) else "")
        words.append(("\u2581" + w) if i % 2 == 0 else w)
    tokens += words
    scores = [0.0] * 3 + [-1000.0] * 256 + [-float(i) for i in range(len(words))]
    types = [2, 3, 3] + [6] * 256 + [1] * len(words)  # unknown, control, byte, normal
    vocab = len(tokens)

    w = gguf.GGUFWriter(out, "llama")
    w.add_context_length(4096)
    w.add_embedding_length(hidden)
    w.add_block_count(layers)
    w.add_feed_forward_length(ff)
    w.add_head_count(heads)
    w.add_head_count_kv(heads)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_dimension_count(hidden // heads)
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_chat_template("{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}assistant:")

    def t(*shape, scale=0.02):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    w.add_tensor("token_embd.weight", t(vocab, hidden))
    w.add_tensor("output_norm.weight", np.ones(hidden, dtype=np.float32))
    out_w = t(vocab, hidden)
    out_w[:3] = 0.0
    w.add_tensor("output.weight", out_w)
    for i in range(layers):
        p = f"blk.{i}."
        w.add_tensor(p + "attn_norm.weight", np.ones(hidden, dtype=np.float32))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            w.add_tensor(p + name + ".weight", t(hidden, hidden))
        w.add_tensor(p + "ffn_norm.weight", np.ones(hidden, dtype=np.float32))
        w.add_tensor(p + "ffn_gate.weight", t(ff, hidden))
        w.add_tensor(p + "ffn_up.weight", t(ff, hidden))
        w.add_tensor(p + "ffn_down.weight", t(hidden, ff))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
