import CCurl

/// The engine's shared budget (`BandwidthBudget`) reaches a transfer here. Engine thread only.
extension EasyHandle {
    /// `applyShares(download:upload:now:)` paces the transfer at its shares of the engine's
    /// budgets (`nil`: no budget), never above its own cap, and keeps the low-speed limit under
    /// the rate Ferry imposes, so that throttling is never taken for a stall. A transfer its
    /// pacer paused is woken sooner when its rate rose (at once when it has no pacer left).
    func applyShares(download: Int64?, upload: Int64?, now: Double) {
        let ownCap = receiveCap.flatMap { $0 > 0 ? $0 : nil }
        let receiveRate = [ownCap, download].compactMap { $0 }.min()
        if let receiveRate {
            if pacer == nil { pacer = Pacer(rate: receiveRate, now: now) } else { pacer?.setRate(receiveRate, now: now) }
        } else {
            pacer = nil
        }
        if let upload {
            if sendPacer == nil { sendPacer = Pacer(rate: upload, now: now) } else { sendPacer?.setRate(upload, now: now) }
        } else {
            sendPacer = nil
            sendAllowance = nil
        }
        let imposed = [receiveRate, upload].compactMap { $0 }.min()
        set(CURLOPT_LOW_SPEED_LIMIT, lowSpeedLimit(under: imposed))
        if pacedUntil != nil {
            pacedUntil = [pacer?.resumeTime, sendPacer?.resumeTime].compactMap { $0 }.min() ?? now
        }
    }

    /// The low-speed limit of the request or session, kept under a quarter of `rate`.
    func lowSpeedLimit(under rate: Int64?) -> Int {
        let limit = task.request.lowSpeedLimit ?? configuration.lowSpeedLimit
        guard let rate, rate > 0 else { return limit }
        return max(1, min(limit, Int(rate / 4)))
    }

    /// Whether each pacer held the transfer back since the last call (receive, send).
    func takeLimitedFlags() -> (receive: Bool, send: Bool) {
        (pacer?.takeLimitedFlag() ?? false, sendPacer?.takeLimitedFlag() ?? false)
    }

    /// `sendMustPause(maximum:)` is true when the send pacer is empty (the upload then pauses
    /// until the engine wakes it); otherwise it notes how much the next read may take.
    func sendMustPause(maximum: Int) -> Bool {
        guard sendPacer != nil else { return false }
        let now = configuration.clock.now()
        guard let allowed = sendPacer?.allowance(maximum: maximum, now: now) else {
            let until = sendPacer?.resumeTime ?? now
            pacedUntil = min(pacedUntil ?? until, until)
            return true
        }
        sendAllowance = allowed
        return false
    }
}
