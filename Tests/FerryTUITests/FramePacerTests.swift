import Testing
@testable import FerryTUI

@Suite struct FramePacerTests {
    private func tick(_ pacer: inout FramePacer, _ now: Duration) -> Bool {
        pacer.takeTick(now: now)
    }

    @Test func idleLoopSleepsWithoutTimeout() {
        var pacer = FramePacer()
        pacer.schedule(now: .seconds(5), wantsTick: false)
        #expect(pacer.pollTimeout(now: .seconds(5), needsDraw: false) == -1)
    }

    @Test func firstFrameIsDrawnAtOnce() {
        let pacer = FramePacer()
        #expect(pacer.canDraw(now: .zero))
        #expect(pacer.pollTimeout(now: .zero, needsDraw: true) == 0)
    }

    @Test func framesAreAtLeastAFrameIntervalApart() {
        var pacer = FramePacer()
        pacer.didDraw(now: .milliseconds(1000))
        #expect(!pacer.canDraw(now: .milliseconds(1010)))
        #expect(pacer.pollTimeout(now: .milliseconds(1010), needsDraw: true) == 23)
        #expect(pacer.canDraw(now: .milliseconds(1033)))
        #expect(pacer.pollTimeout(now: .milliseconds(1040), needsDraw: true) == 0)
    }

    @Test func ticksRunOncePerSecondOnlyWhileWanted() {
        var pacer = FramePacer()
        pacer.schedule(now: .zero, wantsTick: true)
        #expect(pacer.pollTimeout(now: .milliseconds(200), needsDraw: false) == 800)
        #expect(!tick(&pacer, .milliseconds(999)))
        #expect(tick(&pacer, .milliseconds(1000)))
        #expect(!tick(&pacer, .milliseconds(1001)))
        #expect(tick(&pacer, .milliseconds(2000)))
        pacer.schedule(now: .milliseconds(2100), wantsTick: false)
        #expect(pacer.pollTimeout(now: .milliseconds(2100), needsDraw: false) == -1)
        #expect(!tick(&pacer, .seconds(10)))
    }

    @Test func lateTicksDoNotBurst() {
        var pacer = FramePacer()
        pacer.schedule(now: .zero, wantsTick: true)
        #expect(tick(&pacer, .seconds(10)))
        #expect(!tick(&pacer, .milliseconds(10_500)))
        #expect(tick(&pacer, .seconds(11)))
    }

    @Test func timeoutRoundsUpToWholeMilliseconds() {
        var pacer = FramePacer()
        pacer.didDraw(now: .zero)
        #expect(pacer.pollTimeout(now: .microseconds(32_500), needsDraw: true) == 1)
    }
}
