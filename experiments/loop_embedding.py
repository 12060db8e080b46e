"""Same promise reworded vs. same topic, different promise (seed 001 "임베딩 모델별 같은 약속 가르기").

For each pair: the embedding cosine (when an embedder is given) and the real `same_loop`
verdict. Prints accuracy and false merges per embedder; `none` runs the text rules alone.

    uv run python experiments/loop_embedding.py --embedder none|ollama|openai [--model bge-m3]
"""

from __future__ import annotations

import argparse
import asyncio

from jarvis.agent_layer.openloop.openloop_types import OpenLoopConfig, same_loop
from jarvis.model_layer.embeddings import EmbeddingSettings, cosine, make_embedder

# (a, b, same promise?)
PAIRS: list[tuple[str, str, bool]] = [
    # reworded, same promise
    ("참석자 목록 확정", "참석자들의 최종 리스트 확정", True),
    ("배포 결과 공유", "배포 결과를 공유하기", True),
    ("로그 확인해줘", "내일 배포 전에 로그 확인해줘", True),
    ("분기 보고서 초안을 팀장님께 보내기", "팀장님께 분기 보고서 초안 보내기", True),
    ("엄마 생신 선물 사기", "어머니 생일 선물 구매", True),
    ("운동 등록하기", "헬스장 회원권 끊기", True),
    ("치과 예약하기", "치과 진료 예약 잡기", True),
    ("세금 신고서 제출", "세금 신고서를 제출하기", True),
    ("회의록 정리해서 공유", "회의록 정리 후 공유하기", True),
    ("발표 자료 만들기", "발표 슬라이드 준비", True),
    ("집주인에게 월세 보내기", "월세 집주인한테 이체", True),
    ("Send the quarterly report to my manager", "send my manager the quarterly report", True),
    ("Book a dentist appointment", "book an appointment with the dentist", True),
    ("Renew the passport", "get my passport renewed", True),
    ("Call the bank about the card", "phone the bank about my card", True),
    ("Review Jiho's PR", "review the PR from Jiho", True),
    # same topic or template, different promise
    ("팀장님께 분기 보고서 보내기", "팀장님께 휴가 신청서 보내기", False),
    ("PR 리뷰 해주기", "PR 머지하기", False),
    ("보고서 3시까지 보내기", "보고서 5시까지 보내기", False),
    ("보고서 2부 출력", "보고서 3부 출력", False),
    ("10일까지 월세 내기", "12일까지 월세 내기", False),
    ("엄마한테 전화하기", "아빠한테 전화하기", False),
    ("치과 예약하기", "치과 예약 취소하기", False),
    ("회의실 예약", "회의실 예약 안 하기", False),
    ("발표 자료 만들기", "발표 자료 검토하기", False),
    ("세금 신고서 제출", "세금 환급 신청", False),
    ("Send the report at 3pm", "send the report at 5pm", False),
    ("Pay $200 rent", "pay $300 rent", False),
    ("Email Alice the slides", "email Bob the slides", False),
    ("Book the flight to Busan", "book the hotel in Busan", False),
    ("Call mom on Friday", "call mom on Sunday", False),
    ("Review Jiho's PR", "merge Jiho's PR", False),
]


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--embedder", choices=["none", "ollama", "openai"], default="none")
    parser.add_argument("--model", default=None)
    parser.add_argument("--base-url", default=None)
    args = parser.parse_args()
    settings = EmbeddingSettings(provider=args.embedder)
    if args.model:
        settings.model = args.model
    elif args.embedder == "openai":
        settings.model = "text-embedding-3-small"
    if args.base_url:
        settings.base_url = args.base_url
    elif args.embedder == "openai":
        settings.base_url = "https://api.openai.com/v1"
    embedder = make_embedder(settings)
    cfg = OpenLoopConfig()
    print("| a | b | same? | cosine | same_loop |\n|---|---|---|---|---|")
    correct = false_merges = missed = 0
    for a, b, same in PAIRS:
        vectors = await embedder.embed([a, b])
        cos = cosine(vectors[0], vectors[1]) if vectors else None
        verdict = same_loop(a, b, cfg, cos)
        correct += verdict == same
        false_merges += verdict and not same
        missed += same and not verdict
        shown = f"{cos:.3f}" if cos is not None else "—"
        print(f"| {a} | {b} | {'yes' if same else 'no'} | {shown} | {'merge' if verdict else '-'} |")
    if args.embedder != "none" and (await embedder.embed(["probe"])) is None:
        print(f"\n(the {args.embedder} embedder was unreachable: text rules only)")
    print(f"\nembedder={args.embedder}: accuracy {correct / len(PAIRS):.2f} "
          f"({correct}/{len(PAIRS)}), false merges {false_merges}, missed duplicates {missed}")


if __name__ == "__main__":
    asyncio.run(main())
